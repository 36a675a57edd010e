"""GET /api/messages: the catalogue of one language, versioned and cacheable; the page
names its version and preloads it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from pasyans import messages


def test_messages_of_each_language(client: TestClient) -> None:
    for lang in messages.LANGS:
        r = client.get("/api/messages", params={"lang": lang})
        assert r.status_code == 200
        body = r.json()
        assert body["lang"] == lang and body["version"] == messages.digest()
        assert body["messages"] == messages.catalogue()[lang]
        assert r.headers["cache-control"] == "no-cache"
    ru = client.get("/api/messages", params={"lang": "ru"}).json()["messages"]
    assert ru["refusal.stock_empty"] == "Колода пуста."


def test_a_versioned_url_is_immutable_and_an_etag_revalidates(client: TestClient) -> None:
    v = messages.digest()
    r = client.get("/api/messages", params={"lang": "en", "v": v})
    assert "immutable" in r.headers["cache-control"]
    again = client.get(
        "/api/messages", params={"lang": "en"}, headers={"If-None-Match": r.headers["etag"]}
    )
    assert again.status_code == 304 and not again.content
    old = client.get("/api/messages", params={"lang": "en", "v": "0" * 12})
    assert old.headers["cache-control"] == "no-cache"


def test_an_unknown_language_is_refused(client: TestClient) -> None:
    r = client.get("/api/messages", params={"lang": "de"})
    assert r.status_code == 422 and r.json()["code"] == "validation_error"


def test_the_page_names_the_version_and_preloads_both_languages(client: TestClient) -> None:
    html = client.get("/").text
    v = messages.digest()
    assert f'<meta name="pasyans-messages" content="{v}">' in html
    assert re.search(rf'rel="preload" href="/api/messages\?lang=all&amp;v={v}"', html)


def test_every_language_in_one_answer(client: TestClient) -> None:
    both = client.get("/api/messages", params={"lang": "all"}).json()
    assert both["lang"] == "all" and both["version"] == messages.digest()
    assert set(both["messages"]) == set(messages.LANGS)
    for lang in messages.LANGS:
        one = client.get("/api/messages", params={"lang": lang}).json()["messages"]
        assert both["messages"][lang] == one


def test_an_error_answer_reads_the_catalogue(client: TestClient) -> None:
    r = client.get("/api/games/nope", headers={"Accept-Language": "ru"})
    err = r.json()["error"]
    assert err["message_ru"] == messages.text("error.no_such_game", "ru")
    assert err["message_en"] == messages.text("error.no_such_game", "en")
