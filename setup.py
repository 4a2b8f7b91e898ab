"""The one optional C extension, ``xpert_frames.distance._arrow_scorer``: it hands Arrow string
buffers straight to rapidfuzz's C scorer interface. Everything else is in pyproject.toml.

Without a working C compiler the build goes on without the extension (one line says so) and
the fuzzy evaluator uses its twin, ``rapidfuzz.process.cpdist`` on Python strings: the same
scores, slower end to end (see docs/speed.md).
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

EXTENSION = "xpert_frames.distance._arrow_scorer"


class OptionalBuildExt(build_ext):
    """``build_ext`` that reports a failed build in one line and carries on without it."""

    def run(self) -> None:
        try:
            super().run()
        except (BaseError, CCompilerError, OSError) as exc:
            _skipped(exc)

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "unix":  # gcc and clang; MSVC has its own /W flags
            ext.extra_compile_args = [*ext.extra_compile_args, "-Wall", "-Wextra"]
        try:
            super().build_extension(ext)
        except (BaseError, CCompilerError, OSError) as exc:
            _skipped(exc)


def _skipped(exc: BaseException) -> None:
    reason = " ".join(str(exc).split()) or type(exc).__name__
    print(
        f"xpert-frames: optional C extension {EXTENSION} not built ({reason}); the fuzzy "
        "evaluator will use the slower rapidfuzz.process.cpdist path (same scores)",
        file=sys.stderr,
    )


setup(
    ext_modules=[Extension(EXTENSION, ["xpert_frames/distance/_arrow_scorer.c"])],
    cmdclass={"build_ext": OptionalBuildExt},
)
