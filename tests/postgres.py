"""A real PostgreSQL server for the tests and the benchmarks.

Debian's ``postgresql`` (installed by ``make test``, the Makefile's
server-deps) is started from its own binaries: ``initdb`` in a temporary
folder, then ``postgres`` on a free port of 127.0.0.1, stopped by its pid.
PostgreSQL refuses to run as root, and the tests run as root: then the folder
belongs to the ``postgres`` system user and both programs run as that user.

Imported as ``tests.postgres`` (the project root is on the path of pytest and
of the benchmarks).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.processes import free_port

#: Settings for a throwaway server: nothing it holds must survive a crash.
FAST = ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]


def binaries() -> Path | None:
    """The newest installed ``/usr/lib/postgresql/N/bin``, or None."""
    found = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")]
    found = [p for p in found if (p / "postgres").exists() and (p / "initdb").exists()]
    numbered = [p for p in found if p.parent.name.isdigit()]
    return max(numbered, key=lambda p: int(p.parent.name), default=None)


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, on a free port.

    ``url`` is an SQLAlchemy URL (psycopg 3) of its ``postgres`` database, as
    the superuser ``marmeon`` (trust authentication, 127.0.0.1 only).
    ``database(name)`` creates another database and returns its URL.
    """

    user = "marmeon"

    def __init__(self, settings: list[str] | None = None) -> None:
        bin_dir = binaries()
        if bin_dir is None:
            raise FileNotFoundError(
                "PostgreSQL is not installed: `make server-deps` installs it."
            )
        self.bin = bin_dir
        self.directory = Path(tempfile.mkdtemp(prefix="marmeon-pg-"))
        self.data = self.directory / "data"
        self.port = free_port()
        self.url = self.url_of("postgres")
        self._created = itertools.count(1)
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.directory, owner.pw_uid, owner.pw_gid)
            self._as = {"user": owner.pw_uid, "group": owner.pw_gid}
        self.log = self.directory / "postgres.log"
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user]
            + ["--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"],
            check=True,
            capture_output=True,
            cwd=self.directory,
            **self._as,
        )
        options = [
            "listen_addresses=127.0.0.1",
            f"port={self.port}",
            f"unix_socket_directories={self.directory}",
            *FAST,
            *(settings or []),
        ]
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data)]
                + [arg for option in options for arg in ("-c", option)],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.directory,
                **self._as,
            )
        self.wait_until_ready()

    def url_of(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def wait_until_ready(self, timeout: float = 30) -> None:
        """Until the server accepts queries (it listens before it is ready)."""
        import psycopg

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"postgres exited with {self.process.returncode}:\n"
                    + self.log.read_text(errors="replace")
                )
            try:
                with psycopg.connect(self.dsn("postgres"), connect_timeout=1):
                    return
            except psycopg.OperationalError:
                time.sleep(0.05)
        raise RuntimeError(f"postgres did not get ready on {self.port}")

    def dsn(self, database: str) -> str:
        """A libpq address (for psycopg itself) of ``database``."""
        return f"host=127.0.0.1 port={self.port} user={self.user} dbname={database}"

    def database(self, name: str) -> str:
        """Create the database ``name`` (empty); its SQLAlchemy URL."""
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url_of(name)

    def new_database(self) -> str:
        """Create a database with a name not used before; its SQLAlchemy URL."""
        return self.database(f"test_{next(self._created)}")

    def stop(self, wait: float = 10) -> None:
        """Stop by its pid (SIGINT: PostgreSQL's fast shutdown, which does
        not wait for clients), SIGKILL after ``wait`` s; remove the folder."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.directory, ignore_errors=True)
