"""The PostgreSQL fixture is a real server: SQLAlchemy and Flask-SQLAlchemy
connect to it, create a table, write and read back."""

from __future__ import annotations

import os
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def test_sqlalchemy_writes_and_reads_back(postgres_url: str) -> None:
    engine = sa.create_engine(postgres_url)
    try:
        with engine.begin() as connection:
            version = connection.execute(sa.text("SHOW server_version")).scalar_one()
            connection.execute(
                sa.text("CREATE TABLE product (id bigint PRIMARY KEY, name text)")
            )
            connection.execute(
                sa.text(
                    "INSERT INTO product SELECT n, 'product ' || n"
                    " FROM generate_series(1, 1000) AS n"
                )
            )
        with engine.connect() as connection:
            rows = connection.execute(
                sa.text("SELECT id, name FROM product WHERE id > 997 ORDER BY id")
            ).all()
            count = connection.execute(sa.text("SELECT count(*) FROM product"))
            assert count.scalar_one() == 1000
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [
        (998, "product 998"),
        (999, "product 999"),
        (1000, "product 1000"),
    ]
    assert int(str(version).split(".")[0]) >= 13


def test_each_test_gets_an_empty_database(postgres: Any, postgres_url: str) -> None:
    other = postgres.new_database()
    assert other != postgres_url
    engine = sa.create_engine(other)
    try:
        with engine.connect() as connection:
            tables = sa.inspect(connection).get_table_names()
    finally:
        engine.dispose()
    assert tables == []


def test_flask_sqlalchemy_session(postgres_url: str) -> None:
    class Base(DeclarativeBase):
        pass

    db = SQLAlchemy(model_class=Base)

    class Note(db.Model):  # type: ignore[name-defined,misc]
        id: Mapped[int] = mapped_column(primary_key=True)
        title: Mapped[str]

    app = Flask("pg")
    app.config["SQLALCHEMY_DATABASE_URI"] = postgres_url
    db.init_app(app)
    with app.app_context():
        db.create_all()
        db.session.add_all([Note(id=2, title="b"), Note(id=1, title="a")])
        db.session.commit()
        titles = db.session.scalars(sa.select(Note.title).order_by(Note.id)).all()
        assert titles == ["a", "b"]
        dialect = db.engine.dialect.name
        db.session.remove()
        db.engine.dispose()
    assert dialect == "postgresql"


def test_the_server_does_not_run_as_root(postgres: Any) -> None:
    import psycopg

    with psycopg.connect(postgres.dsn("postgres")) as connection:
        pid = connection.execute("SELECT pg_backend_pid()").fetchone()
        assert pid is not None
        # Looked at while the connection is open: its backend ends with it.
        assert os.stat(f"/proc/{pid[0]}").st_uid != 0
    assert os.stat(f"/proc/{postgres.process.pid}").st_uid != 0
