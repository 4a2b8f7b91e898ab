"""Verify the English fast path and rjieba against the reference tokenizers on large corpora.

    .venv/bin/python -m benchmarks.verify_tokenizer [--n 1000000] [--zh 200000]

English: every string of a generated corpus (words, quotes, contractions, dashes, brackets,
numbers, unicode punctuation, random characters) is tokenized by ``NLTKWordTokenizer`` and by
the Polars fast path; every string the fast path accepts must give identical tokens.
Chinese: ``rjieba.cut`` on whole strings against ``jieba.lcut`` on generated text (what the
BLEU path does instead, per block and routed, is verified by ``benchmarks/verify_segmenter.py``).
"""

from __future__ import annotations

import argparse
import random
import time

import polars as pl

WORDS = [
    "the",
    "a",
    "an",
    "of",
    "to",
    "in",
    "is",
    "it",
    "I",
    "you",
    "he",
    "she",
    "we",
    "they",
    "can",
    "cannot",
    "can't",
    "won't",
    "don't",
    "isn't",
    "it's",
    "he's",
    "I'm",
    "I'd",
    "we'll",
    "they're",
    "you've",
    "'tis",
    "'twas",
    "gonna",
    "wanna",
    "gotta",
    "gimme",
    "lemme",
    "more'n",
    "d'ye",
    "hello",
    "world",
    "Good",
    "muffins",
    "cost",
    "euros",
    "York",
    "Please",
    "buy",
    "them",
    "Thanks",
    "U.S.",
    "e.g.",
    "i.e.",
    "Mr.",
    "Dr.",
    "o'clock",
    "rock'n'roll",
    "ol'",
    "'em",
    "'cause",
    "y'all",
    "3.88",
    "3,36",
    "1,000",
    "12:30",
    "50%",
    "$5",
    "#1",
    "@user",
    "a&b",
    "CAN'T",
    "WON'T",
    "It'S",
    "'RE",
    "'Ll",
    "N'T",
    "can't've",
    "ma'am",
    "naïve",
    "café",
    "résumé",
    "Zürich",
    "straße",
]
PUNCT = [
    *list(".,;:!?'\"`()[]{}<>-—–‒―…*&%$#@/\\|~^_+="),
    "--",
    "...",
    "''",
    "``",
    "“",
    "”",
    "‘",
    "’",
    "«",
    "»",
    "„",
    "。",
    "，",
    "！",
    "？",
    "\n",
    "\t",
    "  ",
    " ' ",
    "'s",
    "'S",
    "'m",
    "'d",
    "'ll",
    "'re",
    "'ve",
    "n't",
    ":\n",
    ",\n",
    ".\n",
]
CHARS = "ab'\" .,:;!?()[]-`’‘“”«»\n\t0123456789Ƚſİı²½́\u00a0\u2028\x1c\u3000中文"


def english_corpus(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.15:  # random characters: stresses the rules' edges
            out.append("".join(rng.choice(CHARS) for _ in range(rng.randint(0, 20))))
            continue
        parts = []
        for _ in range(rng.randint(0, 25)):
            r = rng.random()
            if r < 0.65:
                parts.append(rng.choice(WORDS))
            elif r < 0.95:
                parts.append(rng.choice(PUNCT))
            else:
                parts.append(rng.choice(CHARS))
        sep = "" if rng.random() < 0.1 else " "
        text = sep.join(
            p if rng.random() < 0.8 else rng.choice(["'", '"', "(", "‘"]) + p for p in parts
        )
        out.append(text)
    return out


def verify_english(n: int) -> None:
    from xpert_frames.tokens import en, en_fast

    corpus = english_corpus(n)
    s = pl.Series("t", corpus)
    start = time.perf_counter()
    frame = pl.select(
        en_fast.needs_nltk(pl.lit(s)).alias("route"), en_fast.tokens(pl.lit(s)).alias("tok")
    )
    fast_s = time.perf_counter() - start
    route = frame["route"].to_list()
    fast = frame["tok"].to_list()
    start = time.perf_counter()
    ref = en.tokenize_many(corpus)
    ref_s = time.perf_counter() - start
    checked = bad = 0
    for text, r, f, routed in zip(corpus, ref, fast, route, strict=True):
        if routed:
            continue
        checked += 1
        if r != f:
            bad += 1
            if bad <= 10:
                print("MISMATCH", repr(text), r, f)
    print(
        f"english: {n:,} strings, {checked:,} on the fast path ({n - checked:,} routed to NLTK), "
        f"{bad} mismatches; fast path {n / fast_s:,.0f} strings/s (all rows), "
        f"NLTK {n / ref_s:,.0f} strings/s"
    )


def chinese_corpus(n: int, seed: int = 1) -> list[str]:
    from xpert_frames.tokens import zh

    rng = random.Random(seed)
    words = [w for w, f in zh.jieba_tokenizer().FREQ.items() if f > 0]
    cjk = [chr(c) for c in range(0x4E00, 0x4E00 + 4000)]
    other = [
        *list("abcXYZ019 .,!?，。！？、；：“”‘’（）《》\t\n-_%$#@&*'\"…—·"),
        "😀",
        "Ａ",
        "\u3000",
    ]
    out = []
    for _ in range(n):
        if rng.random() < 0.5:
            out.append("".join(rng.choice(words) for _ in range(rng.randint(0, 30))))
        else:
            out.append(
                "".join(
                    rng.choice(cjk) if rng.random() < 0.7 else rng.choice(other)
                    for _ in range(rng.randint(0, 40))
                )
            )
    return out


def verify_chinese(n: int) -> None:
    try:
        import rjieba
    except ImportError:
        print("chinese: rjieba not installed; skipped")
        return
    from xpert_frames.tokens import zh

    corpus = chinese_corpus(n)
    start = time.perf_counter()
    ref = zh.tokenize_many(corpus)
    ref_s = time.perf_counter() - start
    start = time.perf_counter()
    fast = [rjieba.cut(t) for t in corpus]
    fast_s = time.perf_counter() - start
    bad = [i for i in range(n) if ref[i] != fast[i]]
    print(
        f"chinese: {n:,} strings, rjieba differs from jieba.lcut on {len(bad):,}; "
        f"jieba {n / ref_s:,.0f} strings/s, rjieba {n / fast_s:,.0f} strings/s"
    )
    for i in bad[:3]:
        print("  e.g.", repr(corpus[i]), ref[i], fast[i])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--zh", type=int, default=200_000)
    args = parser.parse_args()
    verify_english(args.n)
    verify_chinese(args.zh)


if __name__ == "__main__":
    main()
