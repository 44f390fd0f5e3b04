from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon import Marmeon, StartupError
from flask_marmeon.config import parse_root


def test_app_url_keeps_only_the_origin(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://Notes.example:443/some/path?q=1")
    assert app.extensions["marmeon"].settings.app_url == "https://notes.example"


def test_app_url_falls_back_to_the_environment(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APP_URL", "http://localhost:5000")
    monkeypatch.setenv("APP_LOCALES", "en, de-AT")
    settings = make_app().extensions["marmeon"].settings
    assert settings.app_url == "http://localhost:5000"
    assert settings.locales == ("en", "de-AT")


def test_config_wins_over_the_environment(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APP_URL", "http://env.example")
    app = make_app(APP_URL="https://config.example")
    assert app.extensions["marmeon"].settings.app_url == "https://config.example"


@pytest.mark.parametrize("value", ["", None])
def test_an_empty_app_url_counts_as_unset(
    make_app: Callable[..., Flask], value: str | None
) -> None:
    assert make_app(APP_URL=value).extensions["marmeon"].settings.app_url is None


@pytest.mark.parametrize(
    "value",
    ["notes.example", "ftp://notes.example", "javascript:alert(1)", "https://", "/x"],
)
def test_an_app_url_that_is_not_http_is_h10(
    make_app: Callable[..., Flask], value: str
) -> None:
    with pytest.raises(StartupError) as info:
        make_app(APP_URL=value)
    assert info.value.code == "H10"
    assert repr(value) in str(info.value)


@pytest.mark.parametrize("value", ["en_US", "en-", "", "e"])
def test_locales_must_be_bcp47(make_app: Callable[..., Flask], value: str) -> None:
    with pytest.raises(ValueError, match="BCP 47"):
        make_app(APP_LOCALES=["en", value])


def test_locales_that_differ_only_in_case_are_refused(
    make_app: Callable[..., Flask],
) -> None:
    with pytest.raises(ValueError, match="same locale"):
        make_app(APP_LOCALES=["de-AT", "de-at"])


def test_defaults_are_visible_in_the_config(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    assert app.config["MARMEON_SITEMAP_TTL"] == 300
    assert app.config["MARMEON_SITEMAP_RETRY_AFTER"] == 30
    assert app.config["MARMEON_SITEMAP_MAX_URLS"] == 50_000


def test_two_apps_keep_their_own_app_url(make_app: Callable[..., Flask]) -> None:
    one = make_app(APP_URL="https://one.example")
    two = make_app(APP_URL="https://two.example")
    assert one.extensions["marmeon"].settings.app_url == "https://one.example"
    assert two.extensions["marmeon"].settings.app_url == "https://two.example"


def test_a_second_init_app_is_refused() -> None:
    app = Flask("x")
    marmeon = Marmeon(app)
    with pytest.raises(RuntimeError, match="already set up"):
        marmeon.init_app(app)


def test_a_wrong_csp_nonce_setting_is_refused(make_app: Callable[..., Flask]) -> None:
    with pytest.raises(TypeError, match="MARMEON_CSP_NONCE"):
        make_app(MARMEON_CSP_NONCE="abc")


@pytest.mark.parametrize("value", [0, 50_001])
def test_a_sitemap_file_lists_at_most_the_formats_50_000_urls(
    make_app: Callable[..., Flask], value: int
) -> None:
    with pytest.raises(ValueError, match="MARMEON_SITEMAP_MAX_URLS"):
        make_app(MARMEON_SITEMAP_MAX_URLS=value)


@pytest.mark.parametrize(
    ("value", "root"),
    [("/", ""), (None, ""), ("/blog", "/blog"), ("/blog/", "/blog"), ("/a/b", "/a/b")],
)
def test_the_mount_path_is_application_root_without_a_trailing_slash(
    value: object, root: str
) -> None:
    assert parse_root(value) == root


@pytest.mark.parametrize(
    "value",
    [
        "//evil.example",
        "/\\evil.example",
        "blog",
        "/a/../b",
        "/a?x",
        "/a#x",
        "/a%2f",
        "/blog//",
        "/a b",
        "/.",
    ],
)
def test_a_mount_path_another_host_could_hide_in_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="APPLICATION_ROOT"):
        parse_root(value)


def test_the_settings_take_the_mount_path_from_flask(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APPLICATION_ROOT="/blog/")
    assert app.extensions["marmeon"].settings.root == "/blog"


@pytest.mark.parametrize(
    ("value", "indexable"),
    [(True, True), (False, False), ("0", False), ("false", False), ("1", True)],
)
def test_indexable_is_configuration(
    make_app: Callable[..., Flask], value: object, indexable: bool
) -> None:
    app = make_app(MARMEON_INDEXABLE=value)
    assert app.extensions["marmeon"].settings.indexable is indexable


def test_indexable_falls_back_to_the_environment(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARMEON_INDEXABLE", "0")
    app = make_app()
    assert app.extensions["marmeon"].settings.indexable is False
    assert app.config["MARMEON_INDEXABLE"] == "0"


def test_a_deployment_is_indexable_unless_configured_otherwise(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app()
    assert app.extensions["marmeon"].settings.indexable is True
    assert app.extensions["marmeon"].settings.sitemap_wait == 20


def test_an_indexable_flag_that_is_no_boolean_is_refused(
    make_app: Callable[..., Flask],
) -> None:
    with pytest.raises(ValueError, match="MARMEON_INDEXABLE"):
        make_app(MARMEON_INDEXABLE="maybe")


def test_the_image_keys_are_read_with_every_other_key() -> None:
    # config.py owns the generated images' keys: their defaults, and their
    # shapes refused by load_settings itself, images on or off.
    from flask_marmeon.config import DEFAULTS, apply_defaults, load_settings
    from flask_marmeon.og_images import Colors

    config: dict[str, object] = {}
    apply_defaults(config, {})
    assert {k for k in DEFAULTS if k.startswith("MARMEON_OG_IMAGE")} == {
        "MARMEON_OG_IMAGES",
        "MARMEON_OG_IMAGE_COLORS",
        "MARMEON_OG_IMAGE_LOGO",
        "MARMEON_OG_IMAGE_FONTS",
        "MARMEON_OG_IMAGE_DRAW",
        "MARMEON_OG_IMAGES_SHARED",
        "MARMEON_OG_IMAGES_MEMORY",
    }
    settings = load_settings(config)
    assert settings.og_images is False and settings.og_image_colors == Colors()
    assert settings.og_images_memory == 32 * 1024 * 1024
    read = load_settings(
        {
            **config,
            "MARMEON_OG_IMAGE_COLORS": {"title": "#fff"},
            "MARMEON_OG_IMAGE_FONTS": {"cjk": ("r.otf", "b.otf"), "arabic": "a.ttf"},
            "MARMEON_OG_IMAGES_SHARED": "yes",
        }
    )
    assert read.og_image_colors.title == (255, 255, 255)
    assert read.og_image_fonts == (
        ("cjk", "r.otf", "b.otf"),
        ("arabic", "a.ttf", "a.ttf"),
    )
    assert read.og_images_shared is True
    with pytest.raises(TypeError, match="MARMEON_OG_IMAGES_MEMORY"):
        load_settings({**config, "MARMEON_OG_IMAGES_MEMORY": "32M"})
    with pytest.raises(ValueError, match="Did you mean 'background'"):
        load_settings({**config, "MARMEON_OG_IMAGE_COLORS": {"backgroud": "#fff"}})


def test_app_url_is_read_by_one_rule_for_the_extension_and_the_audit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from flask_marmeon.audit.fetch import app_origin
    from flask_marmeon.config import app_url_value, origin_host, parse_app_url

    # The configuration wins; an empty value falls back to the environment.
    env = {"APP_URL": "https://env.example"}
    assert app_url_value({"APP_URL": "https://config.example"}, env) == (
        "https://config.example"
    )
    assert app_url_value({"APP_URL": ""}, env) == "https://env.example"
    assert app_url_value({}, {}) is None
    # The audit of an app without the extension reads it the same way.
    monkeypatch.setenv("APP_URL", "https://Notes.example:8443/some/path")
    assert app_origin(Flask("plain")) == "https://notes.example:8443"
    assert origin_host(parse_app_url("http://[::1]:5000") or "") == "[::1]:5000"


def test_the_shared_store_s_keys_name_the_app_or_the_prefix() -> None:
    from flask_marmeon.config import Settings, apply_defaults, load_settings

    def settings(url: str, root: str = "/", prefix: str | None = None) -> Settings:
        config = {"APP_URL": url, "APPLICATION_ROOT": root}
        if prefix is not None:
            config["MARMEON_CACHE_PREFIX"] = prefix
        apply_defaults(config, {})
        return load_settings(config)

    production = settings("https://notes.example", "/blog")
    name = production.store_name("notes")
    assert len(name) == 16 and name == production.store_name("notes")
    # Another import name, mount path or address: another app's keys.
    assert name != production.store_name("notes_staging")
    assert name != settings("https://notes.example").store_name("notes")
    assert name != settings("https://other.example", "/blog").store_name("notes")
    # MARMEON_CACHE_PREFIX: one name, whatever the rest.
    one = settings("https://notes.example", prefix="shop")
    two = settings("https://shop.example", "/s", prefix="shop")
    assert one.store_name("a") == two.store_name("b") != name
