"""Worker process of :mod:`xpert_frames.tokens.pool`: reads pickled lists of strings on stdin,
writes their ``jieba.lcut`` token lists on stdout, until stdin closes."""

from __future__ import annotations

import sys

from xpert_frames.tokens import zh
from xpert_frames.tokens.pool import receive, send


def main() -> None:
    zh.tokenize("")
    while True:
        try:
            texts = receive(sys.stdin.buffer)
        except EOFError:
            return
        send(sys.stdout.buffer, zh.tokenize_many(texts))


if __name__ == "__main__":
    main()
