"""BLEU: 10 models x shared references, mixed Chinese/English, three contenders.

* ``per-row seed path`` (baseline): for each row, detect the language, tokenize prediction and
  references (jieba.lcut / NLTKWordTokenizer) and call ``nltk...sentence_bleu`` — the seed's code.
* ``sacrebleu.sentence_bleu per row``: sacrebleu's own tokenizers (13a / zh) and smoothing, so
  its scores differ by design; it is a speed reference.
* ``xpert_frames``: ``xf.score(frame, [BLEUEvaluator()])`` end to end (tokenization included).

Per-row contenders run on a subset and are scaled (they are linear in rows); every contender runs
in its own subprocess so its peak RSS is its own. xpert_frames' scores are compared with the seed
path's on the subset rows (must be equal within 1e-9).

    .venv/bin/python -m benchmarks --only bleu [--quick]
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

from benchmarks.common import Row, peak_rss_mb, size

BENCH = "bleu (10 models x shared refs, zh/en)"
MODELS = 10
_EN_SUFFIX = [""] * 12 + ["s", "ed", "ing", "'s", "n't"]
_PUNCT = [",", ".", ";", ":", "?", "!", "(", ")", '"', "--"]


def _english_vocab(rng: random.Random, size: int = 6000) -> list[str]:
    letters = "etaoinshrdlucmfwypvbgkqjxz"
    words: set[str] = set()
    while len(words) < size:
        w = "".join(rng.choice(letters[: rng.randint(8, 26)]) for _ in range(rng.randint(1, 9)))
        words.add(w + rng.choice(_EN_SUFFIX))
    return sorted(words)


def _zh_vocab(size: int = 20000) -> list[str]:
    from xpert_frames.tokens import zh

    words = sorted(w for w, f in zh.jieba_tokenizer().FREQ.items() if f > 50 and len(w) <= 4)
    return random.Random(3).sample(words, min(size, len(words)))


def _perturb(rng: random.Random, units: list[str], vocab: list[str], noise: float) -> list[str]:
    out = []
    for u in units:
        r = rng.random()
        if r < noise / 3:
            continue  # drop
        if r < 2 * noise / 3:
            out.append(rng.choice(vocab))  # substitute
        else:
            out.append(u)
        if rng.random() < noise / 6:
            out.append(rng.choice(vocab))  # insert
    return out


def make_data(refs: int, seed: int = 0) -> pl.DataFrame:
    """``MODELS x refs`` rows: model, prediction, answer; half the references Chinese."""
    rng = random.Random(seed)
    en_vocab = _english_vocab(rng)
    zh_vocab = _zh_vocab()
    ref_units: list[tuple[bool, list[str]]] = []
    for _ in range(refs):
        if rng.random() < 0.5:
            units = [rng.choice(zh_vocab) for _ in range(rng.randint(4, 24))]
            if rng.random() < 0.6:
                units.insert(rng.randint(0, len(units)), rng.choice(["，", "、", "；"]))
            ref_units.append((True, [*units, "。"]))
        else:
            units = [rng.choice(en_vocab) for _ in range(rng.randint(5, 30))]
            for _ in range(rng.randint(0, 3)):
                units.insert(rng.randint(0, len(units)), rng.choice(_PUNCT))
            units[0] = units[0].capitalize()
            ref_units.append((False, [*units, "."]))

    def text(zh: bool, units: list[str]) -> str:
        return "".join(units) if zh else " ".join(units)

    answers = [text(zh, u) for zh, u in ref_units]
    model, preds, ans = [], [], []
    for m in range(MODELS):
        noise = 0.1 + 0.07 * m
        for (zh, units), a in zip(ref_units, answers, strict=True):
            vocab = zh_vocab if zh else en_vocab
            model.append(f"model_{m}")
            preds.append(text(zh, _perturb(rng, units, vocab, noise)))
            ans.append(a)
    return pl.DataFrame({"model": model, "prediction": preds, "answer": ans})


# --------------------------------------------------------------------------- contenders
def _seed_path(frame: pl.DataFrame) -> list[float]:
    from tests.oracles import bleu as oracle

    return [
        oracle.bleu(p, a)
        for p, a in zip(frame["prediction"].to_list(), frame["answer"].to_list(), strict=True)
    ]


def _sacrebleu(frame: pl.DataFrame) -> list[float]:
    import re

    import sacrebleu

    cjk = re.compile(r"[\u4e00-\u9fff]")
    out = []
    for p, a in zip(frame["prediction"].to_list(), frame["answer"].to_list(), strict=True):
        zh = len(p) > 0 and len(cjk.findall(p)) / len(p) > 0.2
        out.append(sacrebleu.sentence_bleu(p, [a], tokenize="zh" if zh else "13a").score / 100)
    return out


def _xpert(frame: pl.DataFrame) -> list[float]:
    import xpert_frames as xf
    from xpert_frames.evaluators.bleu.evaluator import BLEUEvaluator

    return xf.score(frame, [BLEUEvaluator()])["bleu_score"].to_list()


CONTENDERS = {"seed": _seed_path, "sacrebleu": _sacrebleu, "xpert_frames": _xpert}


def _child(contender: str, path: str, rows: int, out: str) -> None:
    frame = pl.read_parquet(path).head(rows)
    fn = CONTENDERS[contender]
    # Warm imports (jieba's dictionary, NLTK) outside the timing; xpert_frames' jieba worker
    # process starts inside it (10 rows are below its threshold).
    fn(frame.head(10))
    start, cpu_start = time.perf_counter(), _cpu()
    scores = fn(frame)
    seconds = time.perf_counter() - start
    if contender == "xpert_frames":  # its jieba workers' CPU time counts once they have exited
        from xpert_frames.tokens import pool

        pool.shutdown()
    cpu = _cpu() - cpu_start
    pl.DataFrame({"score": scores}).write_parquet(out)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss": peak_rss_mb(), "rows": len(frame)}))


def _cpu() -> float:
    """CPU seconds of this process and its exited children (a shared machine's fairer clock)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _spawn(contender: str, path: Path, rows: int, tmp: Path) -> tuple[dict, list[float]]:
    out = tmp / f"{contender}.parquet"
    cmd = [sys.executable, "-m", "benchmarks.bench_bleu", contender, str(path), str(rows), str(out)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    info = json.loads(done.stdout.strip().splitlines()[-1])
    return info, pl.read_parquet(out)["score"].to_list()


def run(quick: bool, refs: int | None = None) -> list[Row]:
    """``refs`` overrides the size (rows = 10 x refs)."""
    subset = size(quick, 2_000, 20_000)
    refs = refs or size(quick, 2_000, 100_000)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        frame = make_data(refs)
        # Per-row subset: every model's rows alike (a sample spread over the whole frame).
        sample = frame.gather_every(max(1, len(frame) // subset))
        frame.write_parquet(tmp / "all.parquet")
        sample.write_parquet(tmp / "sample.parquet")
        total = len(frame)
        rows: list[Row] = []
        seed_info, seed_scores = _spawn("seed", tmp / "sample.parquet", len(sample), tmp)
        sac_info, _ = _spawn("sacrebleu", tmp / "sample.parquet", len(sample), tmp)
        xf_info, xf_scores = _spawn("xpert_frames", tmp / "all.parquet", total, tmp)
        step = max(1, len(frame) // subset)
        xf_sample = xf_scores[::step][: len(seed_scores)]
        diff = max(abs(a - b) for a, b in zip(xf_sample, seed_scores, strict=True))
        for name, info, note in (
            ("per-row seed path (jieba/NLTK + sentence_bleu)", seed_info, "subset, scaled"),
            ("sacrebleu.sentence_bleu per row", sac_info, "subset, scaled; own tokenizers"),
            ("xpert_frames BLEUEvaluator", xf_info, f"max |diff| vs seed {diff:.1e}"),
        ):
            seconds = info["seconds"] * total / info["rows"]
            cpu = info["cpu"] * total / info["rows"]
            rows.append(
                Row(
                    BENCH,
                    name,
                    total,
                    seconds,
                    f"{note}; CPU {cpu:,.1f} s; peak RSS {info['rss']:,.0f} MB",
                    {
                        "peak_rss_mb": info["rss"],
                        "measured_rows": info["rows"],
                        "max_diff": diff,
                        "cpu_seconds": cpu,
                    },
                )
            )
        return rows


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
