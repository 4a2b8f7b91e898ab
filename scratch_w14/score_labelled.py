import json, sys
import polars as pl
import xpert_frames as xf
from xpert_frames.evaluators.math_answer import MathEvaluator
df = pl.DataFrame([json.loads(l) for l in open("tests/data/math_labelled_forms.jsonl", encoding="utf-8")])
out = xf.score(df, [MathEvaluator()])
out = out.with_columns(ok=(pl.col("math_score") == pl.col("correct").cast(pl.Float64)),
                       false_credit=(pl.col("math_score") == 1.0) & ~pl.col("correct"))
print(out.group_by("split", "kind").agg(n=pl.len(), right=pl.col("ok").sum(), false_credit=pl.col("false_credit").sum()).sort("split", "kind"))
if "-v" in sys.argv:
    with pl.Config(fmt_str_lengths=80, tbl_rows=200, tbl_width_chars=250):
        cols = [c for c in out.columns if c.startswith("math_")]
        print(out.filter(~pl.col("ok") & (pl.col("split") == sys.argv[-1] if sys.argv[-1] in ("dev","holdout") else ~pl.col("ok"))).select("prediction", "answer", "correct", *cols))
try:
    from math_verify import parse, verify
    right = fc = 0
    for r in df.iter_rows(named=True):
        g = verify(parse(r["answer"] if "$" in r["answer"] else "$" + r["answer"] + "$"), parse(r["prediction"]))
        right += g == r["correct"]; fc += g and not r["correct"]
    print("math-verify per row:", right, "/", df.height, "false credits", fc)
except ImportError:
    pass
