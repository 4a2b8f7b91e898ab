#!/usr/bin/env bash
# Issue 15: `xpert-frames score ... --by id` with one group per row; peak RSS and CPU time from
# /usr/bin/time -v. Usage: benchmarks/bench_report_groups.sh [rows...] (default 250000 500000 1000000)
set -euo pipefail
PY=${PYTHON:-python}
DIR=$(mktemp -d)
ROWS=${*:-250000 500000 1000000}
"$PY" - "$DIR" $ROWS <<'PYEOF'
import sys
import numpy as np
import polars as pl
out, sizes = sys.argv[1], [int(n) for n in sys.argv[2:]]
rng = np.random.default_rng(0)
words = "the cat sat on a mat dog ran far away big small red blue green answer is yes no maybe".split()
def sentence() -> str:
    return " ".join(rng.choice(words, rng.integers(3, 12)))
preds = np.array([sentence() for _ in range(5000)])
refs = np.array([sentence() for _ in range(1000)])
n = max(sizes)
df = pl.DataFrame({
    "id": np.arange(n),
    "model": rng.choice(["a", "b", "c", "d"], n),
    "prediction": preds[rng.integers(0, 5000, n)],
    "answer": refs[rng.integers(0, 1000, n)],
})
for size in sizes:
    df.head(size).write_parquet(f"{out}/in{size}.parquet")
PYEOF
for n in $ROWS; do
  /usr/bin/time -v xpert-frames score "$DIR/in$n.parquet" -o "$DIR/out$n.parquet" \
    -e fuzzy -e bleu --by id --report "$DIR/r$n.json" -q 2> "$DIR/time$n.log"
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$DIR/time$n.log")
  user=$(awk -F': ' '/User time/ {print $2}' "$DIR/time$n.log")
  sys=$(awk -F': ' '/System time/ {print $2}' "$DIR/time$n.log")
  wall=$(awk -F'): ' '/Elapsed/ {print $2}' "$DIR/time$n.log")
  echo "rows=$n groups=$n peak_rss_mib=$((rss / 1024)) user_s=$user sys_s=$sys wall=$wall"
done
rm -rf "$DIR"
