"""Issue 21, point 4: the audit is bounded against a hostile site.

Each audit runs in a subprocess of its own, over tests/audit/hostile_app.py,
and reports its findings and the process's memory (VmRSS, and VmHWM, the
peak, from /proc/self/status): a timed-out answer is no longer read once
the audit has given up on it, the audit keeps findings and not the pages,
what is fetched is capped (and the cap is a finding), and a JSON-LD block
nested deep is a finding, not a RecursionError.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from flask_marmeon.audit import audit
from flask_marmeon.cli import marmeon_group
from flask_marmeon.testing import assert_crawlable
from tests.audit.hostile_app import create_app

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
MB = 1024

SCRIPT = """
import json, sys, threading, time
sys.path.insert(0, sys.argv[1])
from tests.audit.hostile_app import create_app
from flask_marmeon.audit import audit
from flask_marmeon.cli import marmeon_group

def memory():
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0])
    return fields

kind, count, settle = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
options = json.loads(sys.argv[5])
app = create_app(kind, count)
with app.test_client() as client:  # warm up: Flask, lxml, the schemas
    client.get("/robots.txt")
audit(create_app("many", 2), timeout=5)
before = memory()
report = audit(app, **options)
after = memory()
# The reading threads end at their next chunk: wait for that, at most settle.
deadline = time.monotonic() + settle
while threading.active_count() > 1 and time.monotonic() < deadline:
    time.sleep(0.05)
later = memory()
print(json.dumps({
    "report": {**report.as_dict(), "urls": list(report.urls)},
    "before": before, "after": after, "later": later,
    "threads": threading.active_count(),
}))
"""


def audit_in_subprocess(
    kind: str, count: int, settle: float = 0.0, **options: Any
) -> dict[str, Any]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("APP_")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), kind, str(count), str(settle)]
        + [json.dumps(options)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=environ,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def codes(result: dict[str, Any]) -> list[str]:
    return [item["code"] for item in result["report"]["findings"]]


def test_a_timed_out_stream_stops_being_read() -> None:
    # Three pages that stream empty chunks forever: each times out, and its
    # reading stops; the process does not grow after the audit returns.
    result = audit_in_subprocess("stream", 3, settle=10.0, timeout=0.5)
    assert codes(result).count("page-status") == 3
    grown = result["later"]["VmRSS"] - result["after"]["VmRSS"]
    assert grown < 5 * MB, f"grew {grown} kB after the audit"
    assert result["threads"] == 1  # every reading thread has ended


def test_memory_stays_flat_over_many_big_pages() -> None:
    # 1,000 pages of 100 KB (100 MB of answers): the audit keeps findings,
    # not the answers nor the documents.
    result = audit_in_subprocess("big", 1000, timeout=30)
    assert result["report"]["pages"] == 1000
    peak = result["after"]["VmHWM"] - result["before"]["VmRSS"]
    assert peak < 40 * MB, f"the audit's peak is {peak} kB over its start"


def test_pages_are_capped() -> None:
    # 60,000 listed URLs: over the format's limit, and over the cap.
    result = audit_in_subprocess("many", 60_000, max_pages=200, timeout=30)
    found = codes(result)
    assert "sitemap-too-large" in found
    assert "audit-capped" in found
    assert result["report"]["pages"] == 200
    (capped,) = [f for f in result["report"]["findings"] if f["code"] == "audit-capped"]
    assert "200" in capped["message"] and "max_pages" in capped["message"]


def test_robots_sitemap_lines_are_capped() -> None:
    app = create_app("sitemaps", 20_000)
    requests: list[str] = []
    app.before_request(lambda: requests.append("x") and None)
    report = audit(app, max_sitemaps=10)
    assert sum(f.code == "audit-capped" for f in report.findings) == 1
    # robots.txt, 10 sitemap files, the one page they list and the home
    # page (where the crawl starts).
    assert len(requests) == 13


def test_the_default_caps() -> None:
    app = create_app("many", 3)
    report = audit(app)
    assert report.pages == 3
    assert not [f for f in report.findings if f.code == "audit-capped"]


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_json_ld_is_a_finding(depth: int) -> None:
    result = audit_in_subprocess("deep", depth, timeout=30)
    (item,) = [f for f in result["report"]["findings"] if f["code"] == "jsonld-invalid"]
    assert "deep" in item["message"]


def test_assert_crawlable_stops_reading_too() -> None:
    app = create_app("stream", 1)
    with pytest.raises(AssertionError, match="page-status"):
        assert_crawlable(app, timeout=0.3)


def test_messages_quote_a_short_excerpt(make_app: Any) -> None:
    app: Flask = make_app(APP_URL="https://notes.example")
    long_title = "A" * 5_000

    @app.get("/")
    def home() -> str:
        return f"<html><head><title>{long_title}</title></head></html>"

    @app.get("/sitemap.xml")
    def sitemap() -> str:
        return (
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            "<url><loc>https://notes.example/</loc></url></urlset>"
        )

    report = audit(app)
    for item in report.findings:
        assert len(item.message) < 600, (item.code, len(item.message))
    (too_long,) = [f for f in report.findings if f.code == "title-too-long"]
    assert "5000 characters" in too_long.message


def test_the_cli_takes_the_caps() -> None:
    app = create_app("many", 5)
    runner = app.test_cli_runner()
    done = runner.invoke(marmeon_group, ["audit", "--json", "--max-pages", "2"])
    report = json.loads(done.output)
    assert report["pages"] == 2
    assert "audit-capped" in [f["code"] for f in report["findings"]]
    done = runner.invoke(marmeon_group, ["audit", "--max-sitemaps", "0"])
    assert done.exit_code == 2 and "max-sitemaps" in done.output


def test_hreflang_return_checks_count_toward_max_pages() -> None:
    # Issue 28, L10: 30 pages naming 1,000 hreflang pages each made 30,032
    # requests. Each return check is an address the audit fetches, within
    # max_pages; what the cap leaves out is said.
    app = create_app("hreflang", 30)
    requests: list[str] = []
    app.before_request(lambda: requests.append("x") and None)
    report = audit(app, max_pages=100)
    # robots.txt, the sitemap, then at most 100 addresses.
    assert len(requests) <= 102
    (capped,) = [f for f in report.findings if f.code == "audit-capped"]
    assert "max_pages" in capped.message


def test_images_are_measured_and_dropped() -> None:
    # Issue 28, L11: 30 pages of twenty 5 MB images reached 3.1 GB. Here 10
    # pages of ten images of 5 MB (500 MB of answers, each a new one): the
    # audit keeps each image's size, not the image.
    result = audit_in_subprocess("images", 10, timeout=30)
    assert result["report"]["pages"] == 10
    peak = result["after"]["VmHWM"] - result["before"]["VmRSS"]
    assert peak < 60 * MB, f"the audit's peak is {peak} kB over its start"


def test_memory_stays_flat_over_many_linked_pages() -> None:
    # Issue 31: 1,000 pages of 100 KB reached by links alone, each linking
    # the next ten: each fetched once, and the audit keeps the link graph,
    # not the pages.
    result = audit_in_subprocess("linked", 1000, timeout=30)
    assert result["report"]["pages"] == 1
    assert len(result["report"]["urls"]) == 1001  # the pages and the home page
    found = codes(result)
    assert "audit-capped" not in found and "link-broken" not in found
    peak = result["after"]["VmHWM"] - result["before"]["VmRSS"]
    assert peak < 40 * MB, f"the audit's peak is {peak} kB over its start"
