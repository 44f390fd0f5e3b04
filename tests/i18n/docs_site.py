"""The docs site of the localized-route tests: a localized blueprint whose
pages answer with what their page object says, under two locales."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request, url_for

from flask_marmeon import Page, current_page, localized

LOCALES = ["en", "de-AT"]


def page_json(page: Page) -> dict[str, Any]:
    return {
        "locale": page.locale,
        "alternates": [dict(a) for a in page.alternates],
        "canonical_path": page.canonical_path,
        "hreflang_paths": [list(p) for p in page.hreflang_paths],
    }


def docs_blueprint(**options: Any) -> Blueprint:
    docs = localized(Blueprint("docs", __name__, **options))

    @docs.get("/")
    def index() -> str:
        return "index"

    @docs.get("/about")
    def about() -> dict[str, Any]:
        return {"args": dict(request.view_args or {}), **page_json(current_page())}

    @docs.get("/notes/<int:note_id>")
    def note(note_id: int) -> dict[str, Any]:
        return {"note_id": note_id, **page_json(current_page())}

    @docs.get("/links")
    def links() -> dict[str, str]:
        return {
            "same": url_for("docs.note", note_id=7),
            "other": url_for("docs.note", note_id=7, locale="de-AT"),
            "other_spelling": url_for("docs.about", locale="DE-at"),
            "none": url_for("docs.about", locale=None),
            "plain": url_for("plain"),
        }

    @docs.route("/form", methods=["GET", "POST"])
    def form() -> str:
        return request.method

    @docs.get("/folder/")
    def folder() -> str:
        return "folder"

    return docs
