"""Which of the package's optional C extensions are in use.

Each native kernel has a Polars/Python twin that gives the same results (the tests compare
them). The environment variable ``XPERT_FRAMES_NATIVE`` chooses, once, at import:

- unset: the extension if it was built, else the twin, with one :class:`NativeFallbackWarning`
  saying the slower path is in use (an install without a C compiler);
- ``0``: the twin, silently (a deliberate choice);
- ``1``: the extension, and an :class:`ImportError` saying how to build it if it is missing.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

from xpert_frames.core.exceptions import InvalidOptionError

ENV = "XPERT_FRAMES_NATIVE"


class NativeFallbackWarning(UserWarning):
    """An optional C extension is not built: its slower Polars/Python twin is in use."""


def native_choice() -> str:
    """``"auto"``, ``"0"`` or ``"1"`` from :data:`ENV` (anything else is an error)."""
    value = os.environ.get(ENV, "").strip()
    if value not in ("", "0", "1"):
        raise InvalidOptionError(
            f"environment variable {ENV} must be 0 (the Polars/Python path) or 1 (the C "
            f"extension), or unset (the extension when built), got {value!r}"
        )
    return value or "auto"


def load_native(module: str, what: str) -> ModuleType | None:
    """The extension ``module`` (``what`` names it in messages), or None for its twin."""
    choice = native_choice()
    if choice == "0":
        return None
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if choice == "1":
            raise ImportError(
                f"{ENV}=1 asks for the C {what} ({module}), which is not built: install with "
                f"a C compiler (pip install --force-reinstall --no-deps .), or unset {ENV}"
            ) from exc
        warnings.warn(
            f"xpert_frames: the C {what} is not built; the slower Polars path is in use (same "
            f"results). Set {ENV}=0 to choose it and silence this notice.",
            NativeFallbackWarning,
            stacklevel=2,
        )
        return None
