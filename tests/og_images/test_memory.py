"""A process keeps drawn images within MARMEON_OG_IMAGES_MEMORY bytes,
the least recently served going first."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon.og_images.generator import image_path
from flask_marmeon.og_images.state import og_images_of
from flask_marmeon.og_images.store import KEEP, MEMORY_BYTES


def _paths(app: Flask, count: int) -> list[str]:
    og = og_images_of(app)
    paths = []
    with app.test_request_context("/"):
        for n in range(count):
            path = image_path(
                og, app.secret_key, (f"Note {n} " * 5, "", "Notes"), page_path="/"
            )
            assert path is not None
            paths.append(path)
    return paths


def test_images_are_kept_within_the_byte_budget(og_app: Callable[..., Flask]) -> None:
    app = og_app(MARMEON_OG_IMAGES_MEMORY=100_000)
    store = og_images_of(app).store
    client = app.test_client()
    paths = _paths(app, 12)
    sizes = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200
        sizes.append(len(response.data))
        assert store.size <= 100_000
        assert store.size == sum(len(png) for png in store.memory.values())
    assert sum(sizes) > 100_000  # more than the budget was drawn
    assert 0 < len(store.memory) < 12
    # The least recently served went first: serving the first again keeps it
    # and lets the oldest of the others go.
    drawn = store.drawn
    client.get(paths[-1])
    assert store.drawn == drawn  # kept: not drawn again
    client.get(paths[0])
    assert store.drawn == drawn + 1  # had gone


def test_the_defaults_are_32_mib_and_a_day(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    assert app.config["MARMEON_OG_IMAGES_MEMORY"] == MEMORY_BYTES == 32 * 1024 * 1024
    assert app.config["MARMEON_OG_IMAGES_SHARED"] is False
    assert og_images_of(app).store.memory_bytes == MEMORY_BYTES
    assert og_images_of(app).store.shared is None
    assert KEEP == 24 * 3600


@pytest.mark.parametrize("value", ["32M", 1.5, True])
def test_a_budget_that_is_not_bytes_is_refused(
    og_app: Callable[..., Flask], value: object
) -> None:
    with pytest.raises(TypeError, match="MARMEON_OG_IMAGES_MEMORY"):
        og_app(MARMEON_OG_IMAGES_MEMORY=value)
