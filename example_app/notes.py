"""The notes: a list, a page per note with every head field, its cover, a search."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from flask_marmeon import SitemapEntry, authorize, everyone, head
from flask_marmeon.sqlalchemy import paged

from .covers import HEIGHT, WIDTH, cover_png
from .layout import site_origin, site_path
from .models import Note, db, utc

#: Every route of the blueprint is public; ``sitemap=`` says which are listed.
notes = authorize(everyone)(Blueprint("notes", __name__))


def latest_change() -> Iterator[SitemapEntry]:
    """The list's one entry: it changed when the latest note did."""
    latest = db.session.execute(db.select(db.func.max(Note.updated_at))).scalar()
    if latest is not None:
        yield SitemapEntry(params={}, last_modified=utc(latest))


def note_entry(row: Any) -> SitemapEntry:
    """A note's entry, with its cover for Google's image sitemap (a path:
    made absolute against APP_URL)."""
    root = str(current_app.config["APPLICATION_ROOT"]).rstrip("/")
    return SitemapEntry(
        params={"note_id": row.id},
        last_modified=utc(row.updated_at),
        images=[f"{root}/notes/{row.id}/cover.png"],
    )


#: The notes in parts of up to MARMEON_SITEMAP_MAX_URLS, each read by a range
#: of ids when a crawler first asks for it: a site of millions of notes
#: never reads them all at once. ``last_modified=``: `flask marmeon
#: indexnow` reads only the notes changed since its last run.
note_pages = paged(
    db.select(Note.id, Note.updated_at),
    key=Note.id,
    entry=note_entry,
    last_modified=Note.updated_at,
)


@notes.get("/", sitemap=latest_change)
def index() -> str:
    """Every note, newest first."""
    # The title and the description are the template's.
    head(
        canonical=site_path("notes.index"),
        open_graph={"url": site_path("notes.index")},
    )
    all_notes = db.session.scalars(
        db.select(Note).order_by(Note.created_at.desc())
    ).all()
    return render_template("notes/index.html", notes=all_notes)


@notes.get("/notes/<int:note_id>", sitemap=note_pages)
def show(note_id: int) -> str:
    """A note, with every field of the head."""
    note = db.get_or_404(Note, note_id)
    canonical = site_path("notes.show", note_id=note.id)
    cover = site_path("notes.cover", note_id=note.id)
    cover_alt = _("Cover of the note “%(title)s”", title=note.title)
    origin = site_origin()
    # The title and the description are the template's (notes/show.html).
    head(
        canonical=canonical,
        # Google may show the cover large in results and Discover.
        robots={"index": True, "follow": True, "max_image_preview": "large"},
        open_graph={
            "type": "article",
            "url": canonical,
            "image": {"url": cover, "width": WIDTH, "height": HEIGHT, "alt": cover_alt},
            "article": {
                "published_time": note.created,
                "modified_time": note.updated,
                "authors": [note.author],
                "tags": note.tag_list,
            },
        },
        twitter={
            "card": "summary_large_image",
            "image": {"url": cover, "alt": cover_alt},
        },
        json_ld={
            "@context": "https://schema.org",
            "@type": "Article",
            "@id": f"{origin}{canonical}#article",
            "headline": note.title,
            "description": note.summary,
            "datePublished": note.created.isoformat(),
            "dateModified": note.updated.isoformat(),
            "author": {"@type": "Person", "name": note.author},
            "image": f"{origin}{cover}",
            "keywords": note.tag_list,
            "mainEntityOfPage": f"{origin}{canonical}",
            "publisher": {"@id": f"{origin}/#org"},
        },
    )
    return render_template(
        "notes/show.html",
        note=note,
        cover=cover,
        cover_alt=cover_alt,
        width=WIDTH,
        height=HEIGHT,
    )


@notes.get("/notes/<int:note_id>/cover.png")
def cover(note_id: int) -> ResponseReturnValue:
    """The note's cover, drawn on request and cached by the browser."""
    note = db.get_or_404(Note, note_id)
    response = Response(cover_png(note.id), mimetype="image/png")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    response.add_etag()
    return response.make_conditional(request)


@notes.get("/search")
def search() -> str:
    """Notes whose title holds the query: useful to people, not to an index.

    A results page is marked ``noindex``: it repeats the notes' pages, and
    every query would be another address. ``follow`` lets a crawler still
    reach the notes through it. It is not in the sitemap.
    """
    query = request.args.get("q", "").strip()
    head(
        robots={"index": False, "follow": True},
        open_graph={"url": site_path("notes.search")},
    )
    found: list[Note] = []
    if query:
        found = list(
            db.session.scalars(
                db.select(Note)
                .where(Note.title.icontains(query, autoescape=True))
                .order_by(Note.created_at.desc())
            )
        )
    return render_template("notes/search.html", query=query, found=found)
