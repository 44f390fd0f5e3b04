"""``django.contrib.sitemaps`` on the tables of ``benchmarks/scale.py``, as
its documentation shows: a ``GenericSitemap`` over a model of the table
(``limit`` 50,000), its ``index`` and ``sitemap`` views. With locales, its
i18n sitemap: ``i18n = True``, ``languages``, ``alternates = True`` and
``x_default = True`` (each row then one URL per language, with the links to
every version, as flask_marmeon's ``localized()`` routes write them), the
model's addresses from ``i18n_patterns``.

Django builds every request from its query; with ``i18n`` it first makes
the list of every (row, language) of the whole table, for the index and
for each part alike. Run in a worker process of its own (``scale.py``).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

PER_PART = 50_000


def django_app(
    server: dict[str, Any], table: str, prefix: str, locales: list[str]
) -> Callable[[str], bytes]:
    """A Django app listing ``table``'s rows at ``/<prefix>/<id>`` (under
    each locale's prefix when ``locales`` are given); its GET."""
    import django
    from django.apps import AppConfig
    from django.conf import settings

    # A Django app without files: its module and config made here.
    shop = types.ModuleType("scale_shop")
    shop.__file__ = __file__
    sys.modules[shop.__name__] = shop

    class ShopConfig(AppConfig):
        name = "scale_shop"
        path = str(Path(__file__).parent)

    ShopConfig.__module__ = shop.__name__
    shop.ShopConfig = ShopConfig  # type: ignore[attr-defined]
    urls = types.ModuleType("scale_shop_urls")
    sys.modules[urls.__name__] = urls
    # i18n_patterns reads the settings, so they come first.
    settings.configure(
        DEBUG=False,
        ALLOWED_HOSTS=["shop.example"],
        ROOT_URLCONF=urls.__name__,
        INSTALLED_APPS=["django.contrib.sitemaps", "scale_shop.ShopConfig"],
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "APP_DIRS": True,
            }
        ],
        DATABASES={
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "HOST": "127.0.0.1",
                "PORT": server["port"],
                "USER": server["user"],
                "NAME": "postgres",
            }
        },
        USE_TZ=True,
        TIME_ZONE="UTC",
        USE_I18N=bool(locales),
        LANGUAGE_CODE=locales[0] if locales else "en-us",
        LANGUAGES=[(tag, tag) for tag in locales] or [("en-us", "English")],
    )
    django.setup()

    from django.conf.urls.i18n import i18n_patterns
    from django.contrib.sitemaps import GenericSitemap
    from django.contrib.sitemaps import views as sitemaps_views
    from django.db import models
    from django.http import HttpRequest, HttpResponse
    from django.test import Client
    from django.urls import path, reverse

    class Row(models.Model):
        id = models.BigAutoField(primary_key=True)
        updated_at = models.DateTimeField()

        class Meta:
            app_label = "scale_shop"
            db_table = table
            managed = False

        def get_absolute_url(self) -> str:
            # One language: the address written as scale.py always did.
            if locales:
                return reverse("row", args=[self.pk])
            return f"/{prefix}/{self.pk}"

    class RowSitemap(GenericSitemap):  # type: ignore[type-arg]
        limit = PER_PART
        protocol = "https"
        i18n = bool(locales)
        languages = locales or None
        alternates = bool(locales)
        x_default = bool(locales)

    def row(request: HttpRequest, pk: int) -> HttpResponse:
        return HttpResponse(f"row {pk}")

    sitemaps = {
        "rows": RowSitemap(
            {"queryset": Row.objects.order_by("id"), "date_field": "updated_at"}
        )
    }
    pages = [path(f"{prefix}/<int:pk>", row, name="row")]
    urls.urlpatterns = [  # type: ignore[attr-defined]
        path("sitemap.xml", sitemaps_views.index, {"sitemaps": sitemaps}),
        path(
            "sitemap-<section>.xml",
            sitemaps_views.sitemap,
            {"sitemaps": sitemaps},
            name="django.contrib.sitemaps.views.sitemap",
        ),
        *(i18n_patterns(*pages) if locales else pages),
    ]
    client = Client(HTTP_HOST="shop.example")

    def get(path: str) -> bytes:
        response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"Django: {path} answered {response.status_code}")
        return bytes(response.content)

    return get
