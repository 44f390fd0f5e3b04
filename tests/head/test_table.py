"""The table of head fields (table.py) is the TypedDicts' twin: same keys,
same types, same required keys, at every depth; and every slot a writer
may write is prepared by the HTML writer."""

from __future__ import annotations

import inspect
from typing import Any, Optional, get_type_hints

from flask_marmeon import head
from flask_marmeon.head import html, table, types
from flask_marmeon.head.field_kinds import JsonLdField, ObjectField, RecordField
from flask_marmeon.head.page_tag_kinds import PriceField
from flask_marmeon.head.writers import Writer


def _tables(start: ObjectField) -> list[ObjectField]:
    """Every nested table under ``start``, itself first."""
    found = [start]
    for field in start.fields.values():
        if isinstance(field, ObjectField):
            found += _tables(field)
        elif isinstance(field, (RecordField, PriceField)):
            found += _tables(field.obj)
    return found


def test_every_table_equals_its_typeddict() -> None:
    seen = set()
    for obj in _tables(table.HEAD.check):
        typed = obj.annotation
        seen.add(typed.__name__)
        hints = get_type_hints(typed)
        assert list(hints) == list(obj.fields), typed.__name__
        assert set(typed.__required_keys__) == set(obj.required), typed.__name__
        for key, field in obj.fields.items():
            if isinstance(field, JsonLdField):
                # A recursive alias: get_type_hints() leaves forward references.
                assert field.annotation is types.JsonLd
                assert typed.__annotations__[key].__forward_arg__ == "JsonLd | None"
                continue
            expected = field.annotation
            if key not in obj.required:
                expected = Optional[expected]  # noqa: UP045 (compares to a Union)
            assert hints[key] == expected, f"{typed.__name__}.{key}"
    # Every public TypedDict of types.py is in the table.
    public = {
        name
        for name, value in vars(types).items()
        if not name.startswith("_")
        and isinstance(value, type)
        and hasattr(value, "__required_keys__")
        and name != "JsonLdGraph"
    }
    assert public <= seen, public - seen


def test_head_takes_the_fields_of_head_fields() -> None:
    (param,) = inspect.signature(head).parameters.values()
    assert param.kind is inspect.Parameter.VAR_KEYWORD
    assert "Unpack[HeadFields]" in str(param.annotation)
    assert list(get_type_hints(types.HeadFields)) == list(table.HEAD.keys)


def test_every_slot_is_prepared_by_the_html_writer() -> None:
    def walk(t: table.Table) -> list[Any]:
        out = []
        for key in t.keys.values():
            if isinstance(key.write, Writer):
                out += key.write.slots
            if key.table is not None:
                out += walk(key.table)
        return out

    for slot in walk(table.HEAD):
        assert slot in html._PIECES, slot


def test_nested_tables_merge_key_by_key_and_the_rest_whole() -> None:
    assert set(table.HEAD.keyed) == {
        "robots",
        "open_graph",
        "twitter",
        "verification",
        "facebook",
    }
    assert table.HEAD.flat == {"other"}
    assert set(table.OPEN_GRAPH.keyed) == {"article", "book", "profile", "product"}
    assert table.HEAD.appended == {"json_ld"}
    for name in ("image", "video", "audio"):
        assert table.OPEN_GRAPH.keys[name].merge == table.REPLACE


def test_the_steps_find_the_fields_they_act_on_by_what_the_table_declares() -> None:
    # The memo, JSON-LD, resolve's defaults and generated images name no
    # field: they ask the table for the key of a role (head/roles.py).
    from flask_marmeon.head import roles

    tables = [table.HEAD]
    tables += [key.table for key in table.HEAD.keys.values() if key.table]
    for each in tables:
        # Every role but CARD (open_graph, twitter) names one key.
        declared = [
            k.role for k in each.keys.values() if k.role not in ("", roles.CARD)
        ]
        assert len(declared) == len(set(declared)), "a role is one key of a table"
    for role in (roles.TITLE, roles.DESCRIPTION, roles.JSON_LD):
        assert table.HEAD.named(role) in table.HEAD.keys
    assert table.HEAD.named("no such role") == ""
    cards = [k.table for k in table.HEAD.keys.values() if k.role == roles.CARD]
    assert len(cards) == 2
    for card in cards:
        assert card is not None
        for role in (roles.IMAGE, roles.TITLE, roles.DESCRIPTION):
            assert card.named(role) in card.keys
    # The page's own addresses (dropped on an error page) are declared too.
    assert [n for n, k in table.HEAD.keys.items() if k.address] == ["canonical"]
