"""Module attributes imported on first use (PEP 562), for packages whose public names live in
heavier submodules: ``import xpert_frames`` then loads neither Polars nor any evaluator."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping


def lazy_attributes(
    module_name: str,
    sources: Mapping[str, str],
    public: Iterable[str],
    *,
    submodules: bool = False,
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for module ``module_name``: a name of ``sources`` is imported
    from its module on first use and then kept as an ordinary attribute; with ``submodules``, a
    public subpackage name is imported as when the package was eager."""
    module = sys.modules[module_name]
    names = set(public)

    def __getattr__(name: str) -> object:
        source = sources.get(name)
        if source is not None:
            value = getattr(importlib.import_module(source), name)
        elif (
            submodules
            and not name.startswith("_")
            and importlib.util.find_spec(f"{module_name}.{name}") is not None
        ):
            value = importlib.import_module(f"{module_name}.{name}")
        else:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(module)) | names)

    return __getattr__, __dir__
