"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from xpert_frames import registry


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Whatever a test registers is gone afterwards."""
    saved = dict(registry._REGISTRY)
    yield
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)
