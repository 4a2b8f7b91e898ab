"""Verify the Chinese segmenter of the BLEU path against ``jieba.lcut`` on a large corpus.

    .venv/bin/python -m benchmarks.verify_segmenter [--n 2000000] [--chunk 200000]

The production path (:func:`xpert_frames.tokens.columns.tokenize_unique` with ``"zh"``: jieba's
blocks split with Polars, each unique block segmented once, by rjieba on blocks without ``_.-``
but for decimal points, by jieba elsewhere) must give exactly ``jieba.lcut(text)`` (the global
jieba, default dictionary) for every string of:

* generated text: dictionary words, random CJK (also outside jieba's U+4E00–U+9FD5 block range:
  extension A, U+9FD6–U+9FFF, compatibility ideographs), ASCII words, numbers, decimals, dates,
  decimals between Chinese characters and near misses (``3.``, ``1.2.3``, ``0.5%``),
  ``a_b``/``x-1``/``3.5``-style joined runs, ``+#&%``, whitespace (``\\r\\n``, ``\\r``, tabs,
  U+3000, NBSP), CJK and ASCII punctuation, kana, hangul, fullwidth letters, emoji;
* real text: random windows and sentence mixes of the text shipped with the package (the sample's
  questions, answers, predictions and choices in Chinese and English, the TCM term lists, the
  units table) and of the repository's Markdown.

Unique strings only (the path works on unique strings). Also reported: how often rjieba on the
whole string would differ (what the block routing avoids), and the speeds.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
ASCII_RUNS = [
    "a_b",
    "x-1",
    "3.5",
    "2024-01-01",
    "v1.2.3",
    "C++",
    "C#",
    "A&B",
    "50%",
    "3.5mg",
    "10-20mg",
    "file_name.txt",
    "e.g.",
    "COVID-19",
    "IL-6",
    "pH7.4",
    "...",
    "--",
    "__init__",
    "http://a.b/c_d",
    "1,000",
    "x+y",
    "#1",
    "&&",
    "%%",
]
OTHER = [
    *list("，。！？、；：“”‘’（）《》【】…—·～"),
    *list(" \t\n\r,!?:;\"'()[]{}<>/\\|@$^*=~`"),
    "\r\n",
    "\u3000",
    "\u00a0",
    "Ａ",
    "１",
    "😀",
    "あ",
    "カ",
    "한",
    "é",
    "ß",
]


def _cjk_pool(rng: random.Random) -> list[str]:
    ranges = [(0x4E00, 0x9FD5)] * 6 + [(0x3400, 0x4DBF), (0x9FD6, 0x9FFF), (0xF900, 0xFAFF)]
    return [chr(rng.randint(*rng.choice(ranges))) for _ in range(30_000)]


def _ascii_word(rng: random.Random) -> str:
    letters = "abcdefghijklmnopqrstuvwxyzXYZ0123456789"
    word = "".join(rng.choice(letters) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.4:
        word += rng.choice("_-.+#&%") + "".join(
            rng.choice(letters) for _ in range(rng.randint(0, 4))
        )
    return word


def _number(rng: random.Random) -> str:
    """Decimals (the ``.`` rjieba gets from Chinese text) and near misses."""
    whole = str(rng.choice([0, 1, 3, 10, 12, 100, 2024, rng.randint(0, 10**6)]))
    frac = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 4)))
    return rng.choice(
        [
            f"{whole}.{frac}",
            f"{whole}.{frac}",
            f"{whole}.{frac}",
            f"{whole}.{frac}%",
            f"{whole}.",
            f".{frac}",
            f"{whole}.{frac}.{frac}",
            f"{whole}..{frac}",
            whole,
        ]
    )


def generated(n: int, words: list[str], seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    cjk = _cjk_pool(rng)
    out = []
    for _ in range(n):
        parts = []
        style = rng.random()
        for _ in range(rng.randint(0, 25)):
            r = rng.random()
            # Mostly words (Chinese as written) or noisy (everything mixed).
            cut = (0.75, 0.85, 0.92) if style < 0.5 else (0.35, 0.6, 0.8)
            if r < cut[0]:
                parts.append(rng.choice(words))
            elif r < cut[1]:
                parts.append(rng.choice(cjk))
            elif r < cut[2]:
                parts.append(rng.choice(OTHER))
            elif r < 0.95:
                parts.append(_number(rng))
            elif r < 0.98:
                parts.append(_ascii_word(rng))
            else:
                parts.append(rng.choice(ASCII_RUNS))
        out.append("".join(parts))
    return out


def _real_texts() -> list[str]:
    data = ROOT / "xpert_frames" / "data"
    sample = pl.read_parquet(data / "sample.parquet")
    texts: list[str] = []
    for col in ("question", "answer", "prediction"):
        texts += [t for t in sample[col].drop_nulls().to_list() if t]
    choices = sample["choices"].explode().drop_nulls().struct.field("content").to_list()
    texts += [c for c in choices if c]
    for csv in data.glob("*.csv"):
        texts += [line for line in csv.read_text(encoding="utf-8").splitlines() if line]
    for md in [*ROOT.glob("*.md"), *(ROOT / "docs").glob("**/*.md")]:
        texts += [p for p in md.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return sorted(set(texts))


def real(n: int, seed: int = 11) -> list[str]:
    """Windows of the concatenated real text and mixes of real sentences."""
    rng = random.Random(seed)
    texts = _real_texts()
    joined = "\n".join(texts)
    out = []
    for _ in range(n):
        if rng.random() < 0.7:
            start = rng.randrange(len(joined))
            out.append(joined[start : start + rng.randint(1, 120)])
        else:
            out.append("".join(rng.choice(texts) for _ in range(rng.randint(1, 3))))
    return out


def corpus(n: int) -> list[str]:
    """``n`` unique strings: half generated, half real (as far as real text allows)."""
    from xpert_frames.tokens import zh

    words = [w for w, f in zh.jieba_tokenizer().FREQ.items() if f > 0]
    seen: dict[str, None] = {}
    for t in real(n // 2):
        seen[t] = None
    real_count = len(seen)
    seed = 7
    while len(seen) < n:
        for t in generated(n - len(seen), words, seed):
            seen[t] = None
        seed += 1
    print(f"corpus: {len(seen):,} unique strings ({real_count:,} from real text)")
    return list(seen)[:n]


def _lcut_many(texts: list[str]) -> list[list[str]]:
    import jieba

    return [jieba.lcut(t) for t in texts]


def _reference(texts: list[str], executor: ProcessPoolExecutor) -> list[list[str]]:
    """``jieba.lcut`` of each text (the global jieba), in ``executor``'s processes."""
    step = 5_000
    parts = [texts[i : i + step] for i in range(0, len(texts), step)]
    return [toks for part in executor.map(_lcut_many, parts) for toks in part]


def verify(n: int, chunk: int, processes: int) -> int:
    import jieba
    import rjieba

    from xpert_frames.tokens import zh
    from xpert_frames.tokens.columns import tokenize_unique

    jieba.initialize()
    texts = corpus(n)
    executor = ProcessPoolExecutor(processes, mp_context=get_context("spawn"))
    bad = whole_bad = 0
    path_s = ref_s = 0.0
    blocks = jieba_blocks = 0
    for start in range(0, len(texts), chunk):
        part = texts[start : start + chunk]
        t0 = time.perf_counter()
        got = tokenize_unique(pl.Series(part), "zh").to_list()
        path_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        ref = _reference(part, executor)
        ref_s += time.perf_counter() - t0
        for text, r, g in zip(part, ref, got, strict=True):
            if r != g:
                bad += 1
                if bad <= 10:
                    print("MISMATCH", repr(text), r, g)
        whole_bad += sum(rjieba.cut(t) != r for t, r in zip(part, ref, strict=True))
        pieces = pl.Series(part).str.extract_all(zh.PIECE).explode().drop_nulls()
        unique_blocks = pieces.filter(pieces.str.contains("^" + zh.BLOCK_CHAR)).unique()
        blocks += len(unique_blocks)
        jieba_blocks += int(pl.select(zh.needs_jieba(pl.lit(unique_blocks))).to_series().sum())
        print(f"  {start + len(part):,} strings checked, {bad} mismatches", flush=True)
    print(
        f"segmenter: {len(texts):,} unique strings, {bad} mismatches with jieba.lcut "
        f"({zh.segmenter()}); unique blocks per chunk summed {blocks:,}, of which "
        f"{jieba_blocks:,} routed to jieba; rjieba on whole strings would differ on "
        f"{whole_bad:,}; production path {len(texts) / path_s:,.0f} strings/s, "
        f"jieba.lcut {len(texts) / ref_s:,.0f} strings/s ({processes} processes)"
    )
    executor.shutdown()
    return bad


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--chunk", type=int, default=200_000)
    parser.add_argument("--processes", type=int, default=2, help="for the jieba.lcut reference")
    args = parser.parse_args()
    raise SystemExit(1 if verify(args.n, args.chunk, args.processes) else 0)


if __name__ == "__main__":
    main()
