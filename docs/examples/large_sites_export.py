"""flask marmeon export-sitemap DIR: the sitemap as static files."""

import re
from pathlib import Path

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_SITEMAP_INDEX"] = True
app.config["MARMEON_SITEMAP_MAX_URLS"] = 2
Marmeon(app)


@app.get(
    "/notes/<int:note_id>",
    authorize=everyone,
    sitemap=lambda: [SitemapEntry({"note_id": n}) for n in range(1, 6)],
)
def show(note_id: int) -> str:
    return f"Note {note_id}"


result = app.test_cli_runner().invoke(
    args=[
        "marmeon",
        "export-sitemap",
        "public",
        "--base-url",
        "https://cdn.example/maps",
    ]
)
assert result.exit_code == 0, result.output
# Each file but the index is named after its bytes too (sitemap-1.<digest>.xml):
# an export never writes over a file the index before it names.
names = sorted(path.name for path in Path("public").iterdir())
assert [re.sub(r"\.[0-9a-f]{12}\.", ".", name) for name in names] == [
    ".marmeon-export",  # the files of ours here: a later export removes only those
    "sitemap-1.xml",
    "sitemap-1.xml.gz",
    "sitemap-2.xml",
    "sitemap-2.xml.gz",
    "sitemap-3.xml",
    "sitemap-3.xml.gz",
    "sitemap.xml",
    "sitemap.xml.gz",
]
# The index names the files where the CDN serves them.
assert (
    f"<loc>https://cdn.example/maps/{names[1]}</loc>".encode()
    in Path("public/sitemap.xml").read_bytes()
)
