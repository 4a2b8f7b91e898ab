"""Whether JSON values fit the annotated keyword options of a class, checked before it is built.

Used to rebuild evaluators from a file's metadata: every option is compared with the parameter
of the class's ``__init__`` it names (its annotation, else the type of its default) *before*
the class is called, so that a value of the wrong kind never reaches a constructor. Only JSON
kinds can come from a file (null, bool, int, float, str, lists, objects with text keys); an
annotation the checker does not understand accepts any of them and leaves the value to the
constructor's own validation.
"""

from __future__ import annotations

import collections.abc as abc
import inspect
import types
import typing
from typing import Any

#: Sequence-like origins a JSON list may stand for.
_SEQUENCES = (
    list,
    tuple,
    set,
    frozenset,
    abc.Sequence,
    abc.MutableSequence,
    abc.Collection,
    abc.Iterable,
    abc.Set,
)
_MAPPINGS = (dict, abc.Mapping, abc.MutableMapping)


def keyword_parameters(cls: type) -> dict[str, Any]:
    """The keyword options of ``cls(...)``: name -> expected type (its resolved annotation,
    else the type of its default, else ``Any``). ``*args``/``**kwargs`` are not options."""
    params = inspect.signature(cls).parameters
    try:
        hints = typing.get_type_hints(cls.__init__)  # type: ignore[misc]
    except Exception:  # an annotation that cannot be resolved here: fall back to defaults
        hints = {}
    out: dict[str, Any] = {}
    for name, p in params.items():
        if name == "self" or p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        if name in hints:
            out[name] = hints[name]
        elif p.default is not p.empty and p.default is not None:
            out[name] = type(p.default)
        else:
            out[name] = Any
    return out


def describe_type(expected: Any) -> str:
    """``expected`` in words, for error messages."""
    if isinstance(expected, type):
        return expected.__name__
    return str(expected).replace("typing.", "").replace("collections.abc.", "")


def fits(value: Any, expected: Any) -> bool:
    """Whether the JSON value ``value`` fits the annotation ``expected``."""
    if expected is Any or expected is object:
        return True
    if expected is None or expected is type(None):
        return value is None
    origin = typing.get_origin(expected)
    args = typing.get_args(expected)
    if origin is typing.Union or origin is types.UnionType:
        return any(fits(value, arg) for arg in args)
    if origin is typing.Literal:
        return any(type(value) is type(arg) and value == arg for arg in args)
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected is str:
        return isinstance(value, str)
    container = origin if origin is not None else expected
    if container in _MAPPINGS:
        if not isinstance(value, dict):
            return False
        key_type, value_type = args if len(args) == 2 else (Any, Any)
        return all(fits(k, key_type) and fits(v, value_type) for k, v in value.items())
    if container in _SEQUENCES:
        if not isinstance(value, list):
            return False
        if container is tuple and args and args[-1] is not Ellipsis:
            return len(value) == len(args) and all(map(fits, value, args))
        item = args[0] if args else Any
        return all(fits(v, item) for v in value)
    if isinstance(container, type):
        return isinstance(value, container)
    return True  # an annotation this checker does not know: the constructor validates
