"""Plain Levenshtein dynamic programme (full matrix) and normalized similarity."""

from __future__ import annotations


def distance(a: str, b: str) -> int:
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        rows[i][0] = i
    for j in range(len(b) + 1):
        rows[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            rows[i][j] = min(
                rows[i - 1][j] + 1,
                rows[i][j - 1] + 1,
                rows[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
    return rows[len(a)][len(b)]


def similarity(reference: str, prediction: str) -> float:
    if not reference and not prediction:
        return 1.0
    if not reference or not prediction:
        return 0.0
    return 1.0 - distance(reference, prediction) / max(len(reference), len(prediction))
