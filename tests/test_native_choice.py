"""``XPERT_FRAMES_NATIVE`` chooses between an optional C extension and its twin: unset, the
extension when built (else the twin, with one warning); 0, the twin; 1, the extension or a
clear ImportError; anything else, a ValueError naming the variable."""

from __future__ import annotations

import warnings

import pytest

from xpert_frames.core.native import ENV, NativeFallbackWarning, load_native, native_choice

MISSING = "xpert_frames.no_such_extension"


def test_zero_chooses_the_twin_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_native("json", "JSON module") is None
        assert load_native(MISSING, "thing") is None


def test_unset_uses_a_built_extension_or_warns_once_per_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert native_choice() == "auto"
    assert load_native("json", "JSON module") is not None
    with pytest.warns(NativeFallbackWarning, match="C thing is not built; the slower Polars"):
        assert load_native(MISSING, "thing") is None


def test_one_requires_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "1")
    assert load_native("json", "JSON module") is not None
    with pytest.raises(ImportError, match=f"{ENV}=1 asks for the C thing"):
        load_native(MISSING, "thing")


def test_other_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "yes")
    with pytest.raises(ValueError, match=f"{ENV} must be 0 .* got 'yes'"):
        native_choice()
