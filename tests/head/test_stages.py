"""The head's behaviours as steps at named stages (flask_marmeon.head.stages):
the stages' order, a registered step runs at its stage, and the parts
register their own."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import html5lib
import pytest
from flask import Flask, abort

import flask_marmeon
from flask_marmeon import Marmeon, head, render_head
from flask_marmeon.head import json_ld_blocks
from flask_marmeon.head.merge import MergedHead
from flask_marmeon.head.og_image import OgImage
from flask_marmeon.head.own_addresses import error_page
from flask_marmeon.head.stages import (
    BEFORE_RESOLVE,
    MERGED,
    RESOLVE,
    STAGES,
    StageContext,
    Stages,
)
from flask_marmeon.head.state import head_state
from flask_marmeon.page import Page

HEAD_PACKAGE = Path(flask_marmeon.__file__).parent / "head"


def _app(**config: object) -> Flask:
    app = Flask(__name__)
    app.config.update(APP_URL="https://notes.example", SECRET_KEY="s", **config)
    Marmeon(app)
    return app


def _head(text: str) -> dict[str, str]:
    """The page's <meta property>/<link rel> and title, by name."""
    tree = html5lib.parse(text, namespaceHTMLElements=False)
    out: dict[str, str] = {}
    for element in tree.iter():
        if element.tag == "title":
            out["title"] = element.text or ""
        elif element.tag == "meta" and element.get("property"):
            out[element.get("property")] = element.get("content")
        elif element.tag == "link" and element.get("rel") == "canonical":
            out["canonical"] = element.get("href")
    return out


def test_the_stages_run_in_their_order() -> None:
    assert (
        STAGES
        == (MERGED, BEFORE_RESOLVE, RESOLVE)
        == ("merged", "before resolve", "resolve")
    )


def test_a_step_runs_at_its_stage_in_the_order_added() -> None:
    app = _app()
    seen: list[tuple[str, str | None]] = []

    def note(name: str):  # type: ignore[no-untyped-def]
        def step(merged: MergedHead, context: StageContext) -> MergedHead:
            seen.append((name, merged.get("title")))
            assert context.state is app.extensions["marmeon"]
            return {**merged, "title": f"{merged.get('title')} {name}"}

        return step

    stages = head_state(app.extensions["marmeon"]).stages
    # Added out of order: each still runs at its own stage.
    stages.add(BEFORE_RESOLVE, note("resolving"))
    stages.add(MERGED, note("merged-1"))
    stages.add(MERGED, note("merged-2"))

    @app.get("/")
    def page() -> str:
        head(title="Note")
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        text = client.get("/").get_data(as_text=True)
    assert seen == [
        ("merged-1", "Note"),
        ("merged-2", "Note merged-1"),
        ("resolving", "Note merged-1 merged-2"),
    ]
    assert _head(text)["title"] == "Note merged-1 merged-2 resolving"


def test_a_merged_step_may_set_the_page() -> None:
    app = _app()

    def localized(merged: MergedHead, context: StageContext) -> MergedHead:
        context.page = Page(locale="de", canonical_path="/de/n")
        return merged

    head_state(app.extensions["marmeon"]).stages.add(MERGED, localized)

    @app.get("/n")
    def page() -> str:
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        found = _head(client.get("/n").get_data(as_text=True))
    assert found["canonical"] == "https://notes.example/de/n"


def test_the_parts_register_their_steps() -> None:
    stages = head_state(_app().extensions["marmeon"]).stages
    # The head: the JSON-LD blocks' texts; the wiring: an error page names
    # no address of its own; og_images: the generated images, named before
    # resolve; the head: the defaults and the texts in place, at resolve.
    assert stages.steps(MERGED) == (json_ld_blocks.written, error_page)
    assert [s.__qualname__ for s in stages.steps(BEFORE_RESOLVE)] == [
        "generated_images.<locals>.step"
    ]
    assert [s.__qualname__ for s in stages.steps(RESOLVE)] == [
        "card_defaults",
        "og_locale_default.<locals>.step",
        "page_canonical",
        "placed",
    ]
    with_default = head_state(
        _app(MARMEON_DEFAULT_CANONICAL=True).extensions["marmeon"]
    ).stages
    assert with_default.steps(MERGED)[:2] == (json_ld_blocks.written, error_page)
    assert [s.__qualname__ for s in with_default.steps(MERGED)[2:]] == [
        "default_canonical.<locals>.step"
    ]


def test_the_error_pages_step_drops_the_pages_addresses() -> None:
    app = _app()

    @app.get("/n")
    def page() -> str:
        head(canonical="/n", open_graph={"url": "/n", "title": "N"})
        abort(404)

    @app.errorhandler(404)
    def missing(error: object) -> tuple[str, int]:
        return f"<head>{render_head()}</head>", 404

    with app.test_client() as client:
        found = _head(client.get("/n").get_data(as_text=True))
    assert "canonical" not in found and "og:url" not in found
    assert found["og:title"] == "N"


def test_the_generated_images_step_names_the_image() -> None:
    app = _app()

    @app.get("/n")
    def page() -> str:
        head(title="A note", open_graph={"image": OgImage(title="A note")})
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        found = _head(client.get("/n").get_data(as_text=True))
    assert found["og:image"].startswith("https://notes.example/")
    assert found["og:image:width"] == "1200"


def _seen_at(app: Flask, stage: str) -> list[tuple[MergedHead, StageContext]]:
    """What a step added at ``stage`` after the parts' own sees, per head."""
    seen: list[tuple[MergedHead, StageContext]] = []

    def step(merged: MergedHead, context: StageContext) -> MergedHead:
        seen.append((merged, context))
        return merged

    head_state(app.extensions["marmeon"]).stages.add(stage, step)
    return seen


def _page(app: Flask, page: Page) -> None:
    """The request's page is ``page`` (a localized page, as i18n sets it)."""

    def localized(merged: MergedHead, context: StageContext) -> MergedHead:
        context.page = page
        return merged

    head_state(app.extensions["marmeon"]).stages.add(MERGED, localized)


def test_the_cards_take_the_pages_title_and_description_at_resolve() -> None:
    app = _app()
    before, at = _seen_at(app, BEFORE_RESOLVE), _seen_at(app, RESOLVE)

    @app.get("/n")
    def page() -> str:
        head(
            title="A note",
            title_template="%s · Notes",
            description="What it says",
            open_graph={"type": "article"},
            twitter={"card": "summary", "title": "Its own"},
        )
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        found = _head(client.get("/n").get_data(as_text=True))
    # Before resolve a card holds what the page set on it, ...
    ((merged, _),) = before
    assert "title" not in merged["open_graph"]
    assert "description" not in merged["twitter"]
    # ... at resolve, after the head's own steps, the page's title (without
    # its template) and description where the card sets none.
    ((merged, _),) = at
    assert merged["open_graph"]["title"] == "A note"
    assert merged["open_graph"]["description"] == "What it says"
    assert merged["twitter"]["title"] == "Its own"
    assert merged["twitter"]["description"] == "What it says"
    assert found["og:title"] == "A note" and found["title"] == "A note · Notes"


def test_a_step_at_resolve_runs_after_the_heads_defaults() -> None:
    app = _app()

    def shorter(merged: MergedHead, context: StageContext) -> MergedHead:
        card = merged["open_graph"]
        return {**merged, "open_graph": {**card, "title": card["title"][:6]}}

    head_state(app.extensions["marmeon"]).stages.add(RESOLVE, shorter)

    @app.get("/n")
    def page() -> str:
        head(title="A long title", open_graph={"type": "website"})
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        found = _head(client.get("/n").get_data(as_text=True))
    assert found["og:title"] == "A long" and found["title"] == "A long title"


def test_the_pages_own_address_and_locale_are_given_at_resolve() -> None:
    app = _app()
    _page(
        app,
        Page(
            locale="de",
            canonical_path="/de/n",
            hreflang_paths=(("en", "/en/n"), ("de", "/de/n"), ("x-default", "/n")),
        ),
    )
    before, at = _seen_at(app, BEFORE_RESOLVE), _seen_at(app, RESOLVE)

    @app.get("/n")
    def page() -> str:
        head(title="Notiz", open_graph={"type": "website"})
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        text = client.get("/n").get_data(as_text=True)
    ((merged, _),) = before
    assert "canonical" not in merged and "locale" not in merged["open_graph"]
    ((merged, _),) = at
    assert merged["canonical"] == "/de/n"
    assert merged["open_graph"]["locale"] == "de_DE"
    found = _head(text)
    assert found["canonical"] == "https://notes.example/de/n"
    assert found["og:locale"] == "de_DE"
    # The hreflang links and og:locale:alternate are written from the page.
    tree = html5lib.parse(text, namespaceHTMLElements=False)
    hreflang = {
        link.get("hreflang"): link.get("href")
        for link in tree.iter("link")
        if link.get("rel") == "alternate"
    }
    assert hreflang == {
        "en": "https://notes.example/en/n",
        "de": "https://notes.example/de/n",
        "x-default": "https://notes.example/n",
    }


def test_a_canonical_the_page_sets_stays_at_resolve() -> None:
    app = _app()
    _page(app, Page(locale="de", canonical_path="/de/n"))
    at = _seen_at(app, RESOLVE)

    @app.get("/n")
    def page() -> str:
        head(canonical="/notes/n")
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        found = _head(client.get("/n").get_data(as_text=True))
    assert at[0][0]["canonical"] == "/notes/n"
    assert found["canonical"] == "https://notes.example/notes/n"


def test_json_ld_is_written_at_merged_and_placed_at_resolve() -> None:
    app = _app()
    block = {"@type": "Thing", "name": "</script>"}
    merged_seen = _seen_at(app, MERGED)
    before, at = _seen_at(app, BEFORE_RESOLVE), _seen_at(app, RESOLVE)

    @app.get("/n")
    def page() -> str:
        head(title="N", json_ld=block)
        return f"<head>{render_head()}</head>"

    with app.test_client() as client:
        text = client.get("/n").get_data(as_text=True)
    # At merged the blocks become their texts (they key the memo), ...
    ((merged, context),) = merged_seen
    assert merged["json_ld"] == (block,)
    assert [json.loads(t) for t in context.json_ld] == [block]
    assert "</script>" not in context.json_ld[0]
    # ... before resolve the head still holds the blocks, at resolve the texts.
    assert before[0][0]["json_ld"] == (block,)
    assert at[0][0]["json_ld"] == tuple(context.json_ld)
    tree = html5lib.parse(text, namespaceHTMLElements=False)
    scripts = [
        json.loads(script.text or "")
        for script in tree.iter("script")
        if script.get("type") == "application/ld+json"
    ]
    assert scripts == [block]


def test_an_unknown_stage_or_step_is_refused() -> None:
    stages = Stages()
    with pytest.raises(ValueError, match="'before resolve'"):
        stages.add("beforeResolve", lambda merged, context: merged)
    with pytest.raises(ValueError, match="no stage 'written'"):
        stages.steps("written")
    with pytest.raises(TypeError, match="function"):
        stages.add(MERGED, "title")  # type: ignore[arg-type]
    assert stages.steps(MERGED) == stages.steps(BEFORE_RESOLVE) == ()


def test_the_head_imports_nothing_of_og_images() -> None:
    # Not even for the type checker: generated images are og_images' step.
    for path in HEAD_PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert not (node.level == 2 and module.startswith("og_images")), path
                assert not module.startswith("flask_marmeon.og_images"), path
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
                assert not any(n.startswith("flask_marmeon.og_images") for n in names)
