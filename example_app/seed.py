"""The notes a first run starts with: a few dozen, the same on every machine."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError, OperationalError

from .models import Note, db

TOPICS = [
    ("sourdough", "baking"),
    ("bicycle maintenance", "cycling"),
    ("houseplants", "gardening"),
    ("night photography", "photography"),
    ("fermentation", "cooking"),
    ("home networking", "computers"),
    ("bookbinding", "crafts"),
    ("trail running", "running"),
    ("watercolour", "painting"),
    ("coffee brewing", "coffee"),
    ("birdwatching", "nature"),
    ("mechanical keyboards", "computers"),
]

ANGLES = [
    (
        "A beginner's guide to {topic}",
        "Everything you need for your first weeks of {topic}, and nothing more.",
    ),
    (
        "Five mistakes with {topic}",
        "What went wrong when I started {topic}, so that it need not go wrong for you.",
    ),
    (
        "A year of {topic}",
        "Twelve months of {topic}: the tools I kept, the habits I dropped.",
    ),
]

AUTHORS = ["Ada Brandt", "Jonas Keller", "Mira Okafor", "Tomás Rivera", "Lena Vogel"]

# Text from users ends up in the head, the JSON-LD and the sitemap: these two
# notes show that markup in a title is written as text.
ODD_NOTES = [
    (
        'Salt & "acid": <markup> in a title',
        "Ampersands, quotes and angle brackets are text, in the page and in"
        " its preview.",
    ),
    (
        "Why </script> in a title is harmless",
        "The JSON-LD block escapes every '<', so no title ends a script early.",
    ),
]

FIRST_DAY = datetime(2025, 1, 6, 9, 30)


def _paragraphs(topic: str, author: str) -> str:
    return "\n\n".join(
        [
            f"{author} has been writing about {topic} for a while. This note"
            " collects what held up.",
            f"Start small. Most of {topic} is patience and a notebook: write down"
            " what you tried and what happened, and read it again a month later.",
            "The rest is practice. Come back to this page when it changes: the"
            " date at the bottom says when it did.",
        ]
    )


def prepare_database() -> int:
    """Create the tables and seed them; return how many notes were added.

    Several workers may start together on an empty database (gunicorn
    without ``--preload``): each may find no table and no note. The one
    that comes second finds the table made (and retries) or the notes'
    ids taken (and leaves them), so the notes are there once.
    """
    try:
        db.create_all()
    except OperationalError:  # "already exists": another worker made it
        db.session.rollback()
        db.create_all()
    return seed_notes()


def seed_notes() -> int:
    """Fill an empty notes table; return how many notes were added.

    A table that has notes is left alone, so every start may call this;
    a process that seeds it at the same moment as another adds nothing.
    """
    if db.session.execute(db.select(Note.id).limit(1)).first() is not None:
        return 0
    notes: list[Note] = []
    for index, ((topic, tag), (title, summary)) in enumerate(
        (pair, angle) for angle in ANGLES for pair in TOPICS
    ):
        author = AUTHORS[index % len(AUTHORS)]
        notes.append(
            _note(
                index,
                title.format(topic=topic),
                summary.format(topic=topic),
                _paragraphs(topic, author),
                author,
                [tag, topic.split()[-1]] if " " in topic else [tag],
            )
        )
    for title, summary in ODD_NOTES:
        index = len(notes)
        notes.append(
            _note(index, title, summary, summary, AUTHORS[index % len(AUTHORS)], [])
        )
    db.session.add_all(notes)
    try:
        db.session.commit()
    except IntegrityError:  # the same ids, seeded by another process
        db.session.rollback()
        if db.session.execute(db.select(Note.id).limit(1)).first() is None:
            raise  # not another seeding: a mistake of this one
        return 0
    return len(notes)


def _note(
    index: int, title: str, summary: str, body: str, author: str, tags: list[str]
) -> Note:
    created = FIRST_DAY + timedelta(days=3 * index, hours=index % 7)
    # Every fourth note was never edited; the others changed days later.
    updated = created + timedelta(days=5 * (index % 4), minutes=17 * (index % 4))
    return Note(
        # Fixed ids: a second process seeding at the same time collides.
        id=index + 1,
        title=title,
        summary=summary,
        body=body,
        author=author,
        tags=",".join(tags),
        created_at=created,
        updated_at=updated,
    )
