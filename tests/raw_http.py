"""Raw HTTP/1.1 over a socket: the request line and headers exactly as given
(http.client would add a leading slash, a Host, or quote the target), and the
answer's status and every header line, repeated ones included."""

from __future__ import annotations

import socket
from dataclasses import dataclass


@dataclass(frozen=True)
class RawAnswer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def get(self, name: str) -> list[str]:
        """Every value of the header ``name`` (any case), in order."""
        return [value for key, value in self.headers if key.lower() == name.lower()]

    def one(self, name: str) -> str | None:
        values = self.get(name)
        assert len(values) <= 1, (name, values)
        return values[0] if values else None


def raw_request(
    port: int,
    target: str,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    timeout: float = 30,
) -> RawAnswer:
    """Send ``METHOD target HTTP/1.1`` with ``headers`` (Host defaults to
    evil.example) and ``Connection: close``; read the whole answer."""
    lines = [f"{method} {target} HTTP/1.1"]
    fields = {"Host": "evil.example", **(headers or {}), "Connection": "close"}
    lines += [f"{name}: {value}" for name, value in fields.items()]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    data = b"".join(chunks)
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = []
    for line in header_lines:
        name, _, value = line.partition(":")
        parsed.append((name.strip(), value.strip()))
    return RawAnswer(int(status_line.split()[1]), parsed, body)
