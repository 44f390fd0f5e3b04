"""The W3C HTML checker (the Nu validator, vnu.jar) finds nothing in any page.

Every page the sitemap lists is checked whole, head and body, with warnings:
htmx's attributes are written ``data-hx-*``, which HTML allows (a bare
``hx-boost`` was an error on every page). vnu.jar comes from npm with the
example's packages (``make test`` installs it, and Java from Debian).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from flask import Flask

from example_app import HERE
from tests.documents import sitemap_files

VNU = HERE / "node_modules/vnu-jar/build/dist/vnu.jar"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def checker() -> list[str]:
    java = shutil.which("java")
    missing = [] if java else ["java (make test installs default-jre-headless)"]
    if not VNU.is_file():
        missing.append(f"{VNU} (make test runs npm ci in example_app)")
    if missing:
        if os.environ.get("CI"):
            pytest.fail("missing: " + ", ".join(missing))
        pytest.skip("missing: " + ", ".join(missing))
    assert java is not None
    return [java, "-jar", str(VNU), "--format", "json"]


def test_every_listed_page_is_valid_html(site: Flask, tmp_path: Path) -> None:
    command = checker()
    client = site.test_client()
    origin = site.config["APP_URL"]
    roots = sitemap_files(lambda url: client.get(url[len(origin) :]).data, origin)
    locs = [loc.text or "" for root in roots for loc in root.iter(f"{SM}loc")]
    assert len(locs) == 54
    files = []
    for number, loc in enumerate(locs):
        path = "/" + loc.split("/", 3)[3]
        response = client.get(path)
        assert response.status_code == 200, loc
        file = tmp_path / f"page-{number}.html"
        file.write_bytes(response.data)
        files.append(str(file))
    result = subprocess.run(
        [*command, *files], capture_output=True, text=True, timeout=300
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    assert messages == []
