"""Worker process of :mod:`xpert_frames.tokens.pool`: reads pickled requests on stdin (lists of
strings to segment with jieba or rjieba), writes their token lists on stdout, until stdin closes.
jieba and rjieba load on their first request."""

from __future__ import annotations

import sys

from xpert_frames.tokens.pool import serve

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
