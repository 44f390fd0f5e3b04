"""What a head field is, as its declaration in table.py says (``Row.role``).

The steps that act on a kind of field ask the table which key is of the
role (:meth:`~.table.Table.named`) instead of naming the key. A role means
the same in ``head()``'s table and in a card's.
"""

from __future__ import annotations

#: A title: the page's (the cards' default), or a card's own.
TITLE = "title"
#: A description: the page's (the cards' default), or a card's own.
DESCRIPTION = "description"
#: The JSON-LD blocks: checked when set, written before the head resolves.
JSON_LD = "json_ld"
#: A link preview card (a nested table) whose image may be generated.
CARD = "card"
#: A card's image, which a generated image stands in for.
IMAGE = "image"
#: The site's name, which a generated image shows.
SITE_NAME = "site_name"
#: A card's locale (og:locale): the page's by default.
LOCALE = "locale"
#: Robots' index and follow (a page's ``noindex``, ``nofollow``).
INDEX = "index"
FOLLOW = "follow"
#: A card's kind: a ``summary`` card gets a square generated image.
CARD_KIND = "card_kind"
