"""TCM diagnosis: a per-row Python implementation of the same rules vs xpert_frames.

The baseline is written the way a careful Python programmer would: one compiled ``re``
alternation (longest synonyms first, so leftmost-longest), Python sets, the seed's set
similarity and rapidfuzz for the fuzzy fallback, one row at a time. It runs on a subset (its
rate is per row, so the ratio is fair) and must agree with xpert_frames on every subset row.
"""

from __future__ import annotations

import os
import re
import sys
import time
import unicodedata
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
from rapidfuzz.distance import Levenshtein

import xpert_frames as xf
from benchmarks.common import Row, peak_rss_mb, runs, size, timed
from xpert_frames.distance import scorers
from xpert_frames.distance.scorers import ENV, backend
from xpert_frames.evaluators.tcm.committed import CONCLUSION, REJECT
from xpert_frames.evaluators.tcm.evaluator import (
    KEYWORD_SEPARATORS,
    NAME_SUFFIX_KEPT,
    TcmDiagnosisEvaluator,
)
from xpert_frames.evaluators.tcm.terms import load_terms

BENCH = "tcm_diagnosis"

# --------------------------------------------------------------------------- data
_PREFIX = ["辨证为", "证属", "中医辨证：", "患者表现为", "考虑", "", "诊断为", "综合分析，属"]
_SUFFIX = ["证。", "。", "，治以健脾益气。", "，建议补气活血。", "", "证，兼见乏力。"]
# Case descriptions that precede a diagnosis in a model's answer (symptoms, tongue, pulse).
_CONTEXT = [
    "",
    "根据患者症状，",
    "患者神疲乏力，纳差便溏，舌淡苔白，脉细弱。",
    "患者头晕目眩，急躁易怒，口苦，舌红苔黄，脉弦数。",
    "症见腰膝酸软，畏寒肢冷，小便清长，舌淡胖，脉沉迟。",
    "患者心悸失眠，多梦健忘，面色萎黄，舌淡，脉细。",
    "综合四诊资料，患者胸胁胀痛，善太息，脘腹胀满，大便溏薄，舌苔白，脉弦。",
    "咳嗽痰多，色白易咯，胸闷，舌苔白腻，脉滑。",
]
_NO_TERM = ["阴阳失调", "营卫不和", "少阳证", "太阳中风", "表里同病"]
_DISEASES = [
    "慢性胃炎", "2型糖尿病", "高血压", "冠心病", "消渴", "胃痛", "眩晕", "痹证", "中风", "哮病",
    "心悸", "胸痹", "腰痛", "头痛", "失眠", "不寐", "类风湿关节炎", "胃溃疡", "功能性消化不良",
    "慢性阻塞性肺病", "咳嗽", "泄泻", "便秘", "水肿", "淋证", "郁证", "虚劳", "月经不调",
]  # fmt: skip
_D_PREFIX = ["此病属于", "诊断：", "西医诊断为", "考虑为", "中医诊断为", ""]
_D_SUFFIX = ["，中医辨证为脾胃虚弱。", "病。", "。", "", "，建议进一步检查。"]
_TREAT = [
    "补气养阴", "活血化瘀", "健脾益气", "疏肝理气", "疏肝解郁", "温补肾阳", "温肾助阳", "滋阴降火",
    "清热利湿", "清利湿热", "化痰止咳", "宣肺平喘", "清热解毒", "平肝潜阳", "滋补肝肾", "养血安神",
    "补血安神", "回阳救逆", "温中散寒", "和胃止痛", "补中益气", "升阳举陷", "益气固表", "健脾化湿",
]  # fmt: skip
_SEPS = ["，", "、", "；", ","]


def make_frame(n: int, seed: int = 0) -> pl.DataFrame:
    """``n`` rows: half syndrome, a quarter disease, a quarter treatment; generated columnar."""
    rng = np.random.default_rng(seed)
    table = load_terms("default")
    syn_rows = [(c, s) for c, s, _ in table.rows if table.is_syndrome(c)]
    canon = pl.Series([c for c, _ in syn_rows])
    surface = pl.Series([s for _, s in syn_rows])

    def pick(values: list[str] | pl.Series, k: int | None = None) -> pl.Series:
        values = pl.Series(values) if isinstance(values, list) else values
        return values.gather(rng.integers(0, len(values), n if k is None else k))

    r1 = rng.integers(0, len(syn_rows), n)
    r2 = rng.integers(0, len(syn_rows), n)
    wrong = rng.integers(0, len(syn_rows), n)
    two = rng.random(n) < 0.3
    right = rng.random(n) < 0.6
    no_term = rng.random(n) < 0.05
    ref_syn = pl.select(
        pl.when(pl.lit(no_term))
        .then(pick(_NO_TERM))
        .when(pl.lit(two))
        .then(pl.concat_str(canon.gather(r1), pl.lit("，"), canon.gather(r2), pl.lit("证")))
        .otherwise(pl.concat_str(canon.gather(r1), pl.lit("证")))
    ).to_series()
    pred_syn = pl.select(
        pl.concat_str(
            pick(_CONTEXT),
            pick(_PREFIX),
            pl.when(pl.lit(no_term))
            .then(pick(_NO_TERM))
            .when(pl.lit(right))
            .then(surface.gather(r1))
            .otherwise(surface.gather(wrong)),
            pl.when(pl.lit(two & right))
            .then(pl.lit("兼") + surface.gather(r2))
            .otherwise(pl.lit("")),
            pick(_SUFFIX),
        )
    ).to_series()
    d_ref = pick(_DISEASES)
    same = rng.random(n) < 0.6
    pred_dis = pl.select(
        pl.concat_str(
            pick(_CONTEXT),
            pick(_D_PREFIX),
            pl.when(pl.lit(same)).then(d_ref).otherwise(pick(_DISEASES)),
            pick(_D_SUFFIX),
        )
    ).to_series()
    t1, t2, t3 = pick(_TREAT), pick(_TREAT), pick(_TREAT)
    three = rng.random(n) < 0.3
    ref_trt = pl.select(
        pl.concat_str(
            t1,
            pick(_SEPS),
            t2,
            pl.when(pl.lit(three)).then(pick(_SEPS) + t3).otherwise(pl.lit("")),
        )
    ).to_series()
    pred_trt = pl.select(
        pl.concat_str(
            pick(_CONTEXT), pl.lit("治法应以"), t1, pl.lit("，"), pick(_TREAT), pl.lit("为主。")
        )
    ).to_series()
    kind = pl.Series(rng.choice(["syndrome", "disease", "treatment"], n, p=[0.5, 0.25, 0.25]))
    return pl.DataFrame({"tcm_eval_type": kind}).select(
        pl.col("tcm_eval_type"),
        pl.when(pl.col("tcm_eval_type") == "syndrome")
        .then(pl.lit(pred_syn))
        .when(pl.col("tcm_eval_type") == "disease")
        .then(pl.lit(pred_dis))
        .otherwise(pl.lit(pred_trt))
        .alias("prediction"),
        pl.when(pl.col("tcm_eval_type") == "syndrome")
        .then(pl.lit(ref_syn))
        .when(pl.col("tcm_eval_type") == "disease")
        .then(pl.lit(d_ref))
        .otherwise(pl.lit(ref_trt))
        .alias("answer"),
    )


# --------------------------------------------------------------------------- baseline
class PerRowTcm:
    """The same rules, one row at a time, in plain Python (default options)."""

    def __init__(self, terms: str = "default", threshold: float = 0.7, w: float = 0.6) -> None:
        table = load_terms(terms)
        self.mapping, self.syndromes = (
            table.mapping,
            {c for c in table.categories if table.is_syndrome(c)},
        )
        keys = sorted(self.mapping, key=len, reverse=True)
        self.rx = re.compile("|".join(map(re.escape, keys)))
        self.threshold, self.w = threshold, w
        self.split = re.compile(f"[^{KEYWORD_SEPARATORS}]+")
        kept = "|".join(NAME_SUFFIX_KEPT)
        self.suffix = re.compile(f"(?s)^(.*(?:{kept}))$|^(.{{2,}})[证病]$")
        drop = {
            c: None for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c))[0] in "PS"
        }
        half = {c: ord(chr(c - 0xFEE0).lower()) for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
        half |= {c: c + 32 for c in range(65, 91)}
        self.half, self.drop = str.maketrans(half), str.maketrans(drop)
        self.reject, self.conclusion = re.compile(REJECT), re.compile(CONCLUSION)
        self.sentence = re.compile(r"(?:[^。；;！!？?\n.]|\.\S)+(?:[。；;！!？?\n]+|\.\s*)?|\.\s*")
        self.clause = re.compile(r"[^，,]+[，,]*")
        self.joiners = re.compile("证候|证|型|兼|夹|和|及|并|伴|或|与")
        self.suffix_words = re.compile(r"^(.{2,}?)(?:证型|证候|证|型)$", re.S)

    def committed(self, s: str) -> str:
        """Without its rejecting sentences (of those, the clauses that conclude)."""
        if not self.reject.search(s):
            return s
        kept = []
        for sentence in self.sentence.findall(s):
            if not self.reject.search(sentence):
                kept.append(sentence)
                continue
            for c in self.clause.findall(sentence):
                if not self.reject.search(c) and self.conclusion.search(c):
                    kept.append(c)
        out = "".join(kept)
        return out if out.strip() else s

    def stem(self, s: str) -> str:
        s = "".join(s.translate(self.drop).split()).lower()
        return self.suffix_words.sub(r"\1", s)

    def whole(self, ref: str) -> bool:
        """More than its known terms (joiners, punctuation and 证/型 aside)."""
        rest = self.joiners.sub("", self.rx.sub("", ref))
        return bool("".join(rest.translate(self.drop).split()))

    def normalize(self, s: str) -> str:
        return self.rx.sub(lambda m: self.mapping[m.group()], s)

    def terms(self, s: str) -> set[str]:
        return {c for c in map(self.mapping.__getitem__, self.rx.findall(s)) if c in self.syndromes}

    def setsim(self, p: set[str], r: set[str]) -> float:
        if not p and not r:
            return 1.0
        if not p or not r:
            return 0.0
        i = len(p & r)
        jac = i / len(p | r)
        prec, rec = i / len(p), i / len(r)
        f1 = 2 * prec * rec / (prec + rec) if prec + rec > 0 else 0.0
        return self.w * f1 + (1 - self.w) * jac

    def fuzzy(self, a: str, b: str) -> float:
        s = Levenshtein.normalized_similarity(a, b)
        return s if s >= self.threshold else 0.0

    def fold(self, s: str) -> str:
        return "".join(s.translate(self.half).translate(self.drop).split())

    def strip(self, s: str) -> str:
        return self.suffix.sub(lambda m: m.group(1) or m.group(2), s)

    def score(self, pred: str, ref: str, kind: str | None) -> float:
        kind = kind or "syndrome"
        pred = self.committed(pred)
        if kind == "syndrome":
            r = self.terms(ref)
            if r and not self.whole(ref):
                return self.setsim(self.terms(pred), r)
            name = self.stem(ref)
            return 1.0 if name and name in self.stem(pred) else self.fuzzy(ref, pred)
        if kind == "disease":
            pd, rd = self.fold(pred), self.strip(self.fold(ref))
            return 1.0 if rd and rd in pd else self.fuzzy(rd, self.strip(pd))
        keywords = list(dict.fromkeys(self.split.findall(self.normalize(ref))))
        p = self.normalize(pred)
        return self.setsim({k for k in keywords if k in p}, set(keywords))


# --------------------------------------------------------------------------- run
def _cpu_timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best wall time, mean CPU seconds (all threads of this process), last result."""
    start = time.process_time()
    repeat = runs(repeat)
    wall, result = timed(fn, repeat)
    return wall, (time.process_time() - start) / repeat, result


def run(quick: bool) -> list[Row]:
    n = size(quick, 20_000, 1_000_000)
    base_n = size(quick, 20_000, 200_000)
    naive_n = size(quick, 2_000, 20_000)
    df = make_frame(n)
    ev = TcmDiagnosisEvaluator()
    rows: list[Row] = []
    shape = (
        f"mean lengths: prediction {df['prediction'].str.len_chars().mean():.1f}, "
        f"answer {df['answer'].str.len_chars().mean():.1f} chars; unique predictions "
        f"{df['prediction'].n_unique():,}, answers {df['answer'].n_unique():,}"
    )

    def cpu_note(cpu: float, rows_: int) -> str:
        return f"CPU {cpu / rows_ * 1e6:.2f} µs/row"

    baseline = PerRowTcm()  # table compilation not timed
    sub = df.head(base_n)
    cols = [sub[c].to_list() for c in ("prediction", "answer", "tcm_eval_type")]
    t, cpu, expected = _cpu_timed(lambda: [baseline.score(*r) for r in zip(*cols, strict=True)])
    note = "all rows" if base_n == n else f"subset of {base_n:,} (rate is per row)"
    rows.append(
        Row(
            BENCH,
            "Python per-row (re + sets + rapidfuzz)",
            base_n,
            t,
            f"{note}; {cpu_note(cpu, base_n)}",
        )
    )

    got = xf.score(sub, [ev])["tcm_diagnosis_score"].to_numpy()
    agree = int(np.isclose(got, np.asarray(expected), atol=1e-12, rtol=0).sum())
    if agree != base_n:
        raise AssertionError(f"baseline and xpert_frames disagree on {base_n - agree} rows")

    t, cpu, out = _cpu_timed(lambda: xf.score(df, [ev]), repeat=2)
    rows.append(
        Row(
            BENCH,
            "xpert_frames eager (DataFrame in/out)",
            n,
            t,
            f"{cpu_note(cpu, n)}; agrees with baseline on {agree:,} rows; "
            f"peak RSS {peak_rss_mb():.0f} MiB; terms by Polars extract_many; the fuzzy "
            f"fallback's kernel path: {backend()} ({ENV}); load {os.getloadavg()[0]:.1f}",
            {"mean_score": float(out["tcm_diagnosis_score"].mean())},  # type: ignore[arg-type]
        )
    )
    if backend() == "native":
        rows.append(_fallback_row(df, ev, out, cpu_note))
    else:
        rows[-1].note += "; this is the fallback path (the C extension is not built)"
    t, cpu, _ = _cpu_timed(lambda: xf.score(df.lazy(), [ev]).collect(engine="streaming"), repeat=2)
    rows.append(Row(BENCH, "xpert_frames lazy, streaming engine", n, t, cpu_note(cpu, n)))
    rows[0].note += f"; {shape}"

    # Context: the obviously-correct oracle of the tests (character scanning), on a subset.
    naive = df.head(naive_n)
    table = _oracle_table()
    args = list(
        zip(*[naive[c].to_list() for c in ("prediction", "answer", "tcm_eval_type")], strict=True)
    )
    if table is not None:
        from tests.oracles import tcm as oracle

        t, cpu, _ = _cpu_timed(lambda: [oracle.score_row(p, r, k, table) for p, r, k in args])
        rows.append(
            Row(
                BENCH,
                "naive per-row oracle (tests/oracles/tcm.py)",
                naive_n,
                t,
                f"subset of {naive_n:,}; {cpu_note(cpu, naive_n)}",
            )
        )
    return rows


def _fallback_row(
    df: pl.DataFrame,
    ev: TcmDiagnosisEvaluator,
    native_out: pl.DataFrame,
    cpu_note: Callable[[float, int], str],
) -> Row:
    """The eager row again on the fuzzy fallback's other kernel path, the cpdist twin
    (``rapidfuzz.process.cpdist`` on Python strings, as ``XPERT_FRAMES_NATIVE=0`` chooses):
    its scores must equal the C extension's (its ratio to the per-row loop is the table's)."""

    def on_twin() -> pl.DataFrame:
        saved = scorers._NATIVE
        scorers._NATIVE = None
        try:
            return xf.score(df, [ev])
        finally:
            scorers._NATIVE = saved

    t, cpu, out = _cpu_timed(on_twin, repeat=2)
    column = "tcm_diagnosis_score"
    if not out[column].equals(native_out[column]):  # nulls in the same rows, values identical
        differ = int(out[column].ne_missing(native_out[column]).sum())
        raise AssertionError(f"the cpdist twin and the C extension differ on {differ:,} rows")
    n = len(df)
    return Row(
        BENCH,
        "xpert_frames eager, fuzzy fallback on the cpdist twin",
        n,
        t,
        f"{cpu_note(cpu, n)}; scores identical to the C extension row on all {n:,} rows; "
        f"load {os.getloadavg()[0]:.1f}",
    )


def _oracle_table() -> Any:
    try:
        from tests.oracles import tcm as oracle
    except ImportError:  # benchmarks run from a checkout; the oracle is optional context
        return None
    return oracle.read_table("default")


if __name__ == "__main__":
    from benchmarks.common import markdown

    result = run(quick="--quick" in sys.argv)
    print(markdown(result, baseline=result[0].contender))
