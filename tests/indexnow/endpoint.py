"""A local IndexNow endpoint: a threaded http.server on 127.0.0.1 that
answers as the real one does, from a script of answers, and keeps every
request it got (method, headers, JSON body)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    """One request the endpoint got."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class Endpoint:
    """The server's address and what it does."""

    url: str
    #: (status, headers) to answer, in order; the last one repeats.
    answers: list[tuple[int, dict[str, str]]] = field(
        default_factory=lambda: [(200, {})]
    )
    received: list[Received] = field(default_factory=list)

    def answer(self, *answers: int | tuple[int, dict[str, str]]) -> None:
        """Script the answers: a status, or (status, headers)."""
        self.answers = [a if isinstance(a, tuple) else (a, {}) for a in answers]

    def urls(self) -> list[str]:
        """Every URL sent, over all requests."""
        return [url for got in self.received for url in got.body["urlList"]]


def serve() -> Iterator[Endpoint]:
    """Run the endpoint until the generator is closed (a fixture's body)."""
    endpoint: Endpoint

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            endpoint.received.append(Received(self.path, dict(self.headers), body))
            status, headers = endpoint.answers[0]
            if len(endpoint.answers) > 1:
                endpoint.answers.pop(0)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    endpoint = Endpoint(f"http://127.0.0.1:{server.server_address[1]}/indexnow")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def refused_url() -> str:
    """An address on 127.0.0.1 where nothing listens (connection refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/indexnow"
