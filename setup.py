"""The package's one optional C extension: the number reader's pattern screen
(``xpert_frames/numeric/_screen.c``; portable C11, no threads). Without a C compiler the
install still succeeds and says, in one line, that the Polars twin of the screen is in use
(math scoring is slower; README "What a compiler buys"). Everything else is declared in
pyproject.toml."""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FALLBACK = (
    "xpert-frames: the optional C number screen was not built ({reason}); the slower Polars "
    "path is in use (same scores; set XPERT_FRAMES_NATIVE=0 to silence the runtime notice)"
)


class OptionalBuildExt(build_ext):
    """``build_ext`` whose failure (no compiler, no Python headers) is one line, not an error."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all: setuptools raises before building
            self._fallback(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler ran and failed, or could not be started
            self._fallback(exc)

    @staticmethod
    def _fallback(exc: BaseException) -> None:
        detail = " ".join(str(exc).split())
        reason = type(exc).__name__ + (f": {detail[:80]}" if detail else "")
        print(FALLBACK.format(reason=reason), file=sys.stderr)


setup(
    ext_modules=[
        Extension(
            "xpert_frames.numeric._screen",
            sources=["xpert_frames/numeric/_screen.c"],
            depends=["xpert_frames/core/_arrow_strings.h"],
            extra_compile_args=["-O3"] if sys.platform != "win32" else [],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
