"""The notes: one table on SQLite, through Flask-SQLAlchemy."""

from __future__ import annotations

from datetime import datetime, timezone

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import DateTime, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of the example's models."""


db = SQLAlchemy(model_class=Base)


def utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime.

    SQLite keeps no time zone, so the times come back naive; they were
    written in UTC.
    """
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


class Note(db.Model):  # type: ignore[name-defined,misc]
    """A note: what a page of the site shows and the sitemap lists."""

    __tablename__ = "notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    summary: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    author: Mapped[str] = mapped_column(String(100))
    #: Comma-separated, written as ``article:tag`` and JSON-LD keywords.
    tags: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)

    @property
    def tag_list(self) -> list[str]:
        """The tags as a list."""
        return [tag for tag in self.tags.split(",") if tag]

    @property
    def created(self) -> datetime:
        """When the note was written, in UTC."""
        return utc(self.created_at)

    @property
    def updated(self) -> datetime:
        """When the note last changed, in UTC."""
        return utc(self.updated_at)
