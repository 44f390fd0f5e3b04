"""How the example app starts: factory, database, translations, checks."""

from __future__ import annotations

import os
import types
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from click.testing import CliRunner
from flask import Flask
from flask.cli import FlaskGroup, find_best_app

import example_app
from example_app import HERE, create_app
from example_app.locales import SOURCE, compile_translations
from example_app.models import Note, db
from example_app.seed import seed_notes


def count_notes(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(Note)).all())


def test_flask_finds_the_factory_and_no_module_level_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `flask --app example_app` takes an attribute `app` first, then calls
    # `create_app()`: importing the package must build nothing.
    assert not hasattr(example_app, "app")
    assert not hasattr(example_app, "application")
    module = types.ModuleType("example_app_copy")
    module.create_app = lambda: create_app(instance_path=tmp_path)  # type: ignore[attr-defined]
    assert isinstance(find_best_app(module), Flask)


def test_the_first_start_creates_and_seeds_the_database_once(tmp_path: Path) -> None:
    first = create_app(instance_path=tmp_path)
    assert (tmp_path / "notes.sqlite3").is_file()
    count = count_notes(first)
    assert 24 <= count <= 60
    second = create_app(instance_path=tmp_path)
    assert count_notes(second) == count
    with second.app_context():
        assert seed_notes() == 0
        titles = db.session.scalars(db.select(Note.title)).all()
    assert len(set(titles)) == len(titles)


def test_translations_are_compiled_into_the_instance_folder(tmp_path: Path) -> None:
    in_source = set(SOURCE.rglob("*"))
    create_app(instance_path=tmp_path)
    compiled = tmp_path / "translations/de/LC_MESSAGES/messages.mo"
    assert compiled.is_file()
    # Nothing compiled lands in the source tree, which git tracks.
    assert set(SOURCE.rglob("*")) == in_source
    # A .mo newer than its .po is left alone; an older one is written again.
    os.utime(compiled, (1, 1))
    compile_translations(tmp_path / "translations")
    assert compiled.stat().st_mtime > 1
    before = compiled.stat().st_mtime_ns
    compile_translations(tmp_path / "translations")
    assert compiled.stat().st_mtime_ns == before


def test_app_url_defaults_to_the_dev_server_and_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(instance_path=tmp_path)
    assert app.config["APP_URL"] == "http://127.0.0.1:5000"
    monkeypatch.setenv("APP_URL", "https://notes.example")
    app = create_app(instance_path=tmp_path)
    robots = app.test_client().get("/robots.txt").get_data(as_text=True)
    assert "Sitemap: https://notes.example/sitemap.xml" in robots.splitlines()


def test_check_routes_passes(site: Flask) -> None:
    # As `flask --app example_app marmeon check-routes`: the command comes
    # from the entry point that FlaskGroup loads.
    cli = FlaskGroup(create_app=lambda: site)
    result = CliRunner().invoke(cli, ["marmeon", "check-routes"])
    assert result.exit_code == 0, result.output
    for rule in ("/notes/<int:note_id>", "/features/<feature>", "/about"):
        assert rule in result.output


def test_every_text_of_the_app_has_a_german_translation() -> None:
    keywords = {**DEFAULT_KEYWORDS, "lazy_gettext": None}
    # babel.cfg itself, as `pybabel extract -F babel.cfg` reads it: the
    # templates use {% do head(...) %}, which the extractor must know.
    with (HERE / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = {
        message if isinstance(message, str) else message[0]
        for _, _, message, _, _ in extract_from_dir(
            str(HERE), method_map=method_map, options_map=options_map, keywords=keywords
        )
    }
    assert len(found) > 20
    with (SOURCE / "de/LC_MESSAGES/messages.po").open("rb") as po_file:
        catalog = read_po(po_file)
    for text in found:
        message = catalog.get(text)
        assert message is not None, f"{text!r} is not in messages.po"
        assert message.string and not message.fuzzy, f"{text!r} is not translated"


def test_workers_starting_together_on_an_empty_database_seed_it_once(
    tmp_path: Path,
) -> None:
    # gunicorn without --preload: every worker builds the app at the same
    # moment; each may see no table and no note.
    import subprocess
    import sys
    import time

    root = Path(example_app.__file__).parent.parent
    for attempt in range(3):
        instance = tmp_path / f"instance-{attempt}"
        at = time.time() + 3  # every process past its imports by then
        script = (
            "import time, sys\n"
            "from example_app import create_app\n"
            f"time.sleep(max(0, {at} - time.time()))\n"
            f"create_app(instance_path={str(instance)!r})\n"
        )
        workers = [
            subprocess.Popen(
                [sys.executable, "-c", script], cwd=root, stderr=subprocess.PIPE
            )
            for _ in range(4)
        ]
        errors = [w.communicate(timeout=120)[1].decode() for w in workers]
        assert [w.returncode for w in workers] == [0, 0, 0, 0], errors
        app = create_app(instance_path=instance)
        with app.app_context():
            titles = db.session.scalars(db.select(Note.title)).all()
        assert 24 <= len(titles) <= 60
        assert len(set(titles)) == len(titles)
