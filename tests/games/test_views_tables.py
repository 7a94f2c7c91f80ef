"""Create Table, Join by link, Practice and the table page (server-rendered parts)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games import services
from games.forms import extract_table_code
from games.models import Game, Seat, Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _create_data(**overrides: Any) -> dict[str, Any]:
    data = {
        "name": "Friday night",
        "game": "tienlen",
        "seats": "4",
        "seat_1": "open",
        "seat_2": "house:easy",
        "seat_3": "house:hard",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
    }
    data.update(overrides)
    return data


def test_create_table_needs_login(client: Client) -> None:
    response = client.get(reverse("tables:create"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_create_table_form_lists_every_game_and_house_levels(user_client: Client) -> None:
    response = user_client.get(reverse("tables:create"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="tienlen"' in html
    for level in services.house_levels():
        assert f'value="house:{level}"' in html
    assert "Alice&#x27;s table" in html


def test_create_table_seats_house_ais_and_redirects_to_the_table(user_client: Client) -> None:
    response = user_client.post(
        reverse("tables:create"),
        _create_data(hide_hand_counts="on", session_length="32", turn_seconds="20"),
    )
    table = Table.objects.get(name="Friday night")
    assert response.status_code == 302
    assert response["Location"] == f"/t/{table.code}/"
    assert table.options["session_length"] == 32
    assert table.options["turn_seconds"] == 20
    assert table.options["hide_hand_counts"] is True
    seats = list(table.seats.order_by("index"))
    assert [s.kind for s in seats] == ["human", "empty", "house", "house"]
    assert [s.house_level for s in seats[2:]] == ["easy", "hard"]


def test_create_table_with_two_seats_ignores_the_other_pickers(user_client: Client) -> None:
    user_client.post(reverse("tables:create"), _create_data(seats="2", seat_1="house:medium"))
    table = Table.objects.get()
    assert table.seat_count == 2
    assert [s.kind for s in table.seats.order_by("index")] == ["human", "house"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "   "),
        ("seats", "5"),
        ("session_length", "20"),
        ("turn_seconds", "2"),
        ("game", "poker"),
        ("seat_1", "house:godlike"),
        ("visibility", "secret"),
    ],
)
def test_create_table_rejects_bad_input(user_client: Client, field: str, value: str) -> None:
    response = user_client.post(reverse("tables:create"), _create_data(**{field: value}))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert 'role="alert"' in response.content.decode()
    assert not Table.objects.exists()


STUD_OPTIONS = {"buy_in": "200", "ante": "1", "bring_in": "2", "small_bet": "5", "big_bet": ""}


def test_create_table_seats_seven_stud_players(user_client: Client, user: Any) -> None:
    html = user_client.get(reverse("tables:create")).content.decode()
    ranges = json.loads(
        html.split('id="game-seat-ranges" type="application/json">')[1].split("<")[0]
    )
    assert ranges == {"tienlen": [2, 4], "stud": [2, 7], "diu": [4, 4]}
    assert 'name="seat_6"' in html  # a picker for every seat up to 7
    levels = ["open", "house:easy", "house:medium", "house:hard", "house:easy", "house:medium"]
    data = _create_data(game="stud", seats="7", name="Seven", **STUD_OPTIONS)
    data.update({f"seat_{i}": level for i, level in enumerate(levels, start=1)})
    response = user_client.post(reverse("tables:create"), data)
    assert response.status_code == 302
    table = Table.objects.get(name="Seven")
    assert table.seat_count == 7
    seats = list(table.seats.order_by("index"))
    assert [s.index for s in seats] == list(range(7))
    assert [s.kind for s in seats] == ["human", "empty", *["house"] * 5]
    # the lobby paths reach every one of the 7 seats, and no 8th
    services.seat_kick(table_id=table.pk, user=user, seat=6)
    services.seat_add_bot(table_id=table.pk, user=user, seat=6, level="hard")
    guest = UserFactory.create(username="guest7")
    assert services.seat_join(table_id=table.pk, user=guest) == 1
    services.seat_kick(table_id=table.pk, user=user, seat=5)
    other = UserFactory.create(username="other7")
    assert services.seat_join(table_id=table.pk, user=other, seat=5) == 5
    for call in (
        lambda: services.seat_add_bot(table_id=table.pk, user=user, seat=7),
        lambda: services.seat_join(table_id=table.pk, user=UserFactory.create(), seat=7),
        lambda: services.seat_join(table_id=table.pk, user=UserFactory.create()),  # full
    ):
        with pytest.raises(services.TableError) as err:
            call()
        assert err.value.code == "no_seat"
    assert table.seats.count() == 7


def test_create_table_refuses_more_seats_than_the_game_takes(
    user_client: Client, user: Any
) -> None:
    data = _create_data(seats="5", seat_4="house:easy")
    response = user_client.post(reverse("tables:create"), data)
    assert response.status_code == 200
    assert response.context["form"].errors["seats"] == [
        "Tiến Lên Miền Nam is played by 2 to 4 players."
    ]
    bad_stud = _create_data(game="stud", seats="7", **STUD_OPTIONS)  # seats 5–7 left unchosen
    response = user_client.post(reverse("tables:create"), bad_stud)
    assert set(response.context["form"].errors) == {"seat_4", "seat_5", "seat_6"}
    assert not Table.objects.exists()
    # the service refuses them too, whoever calls it
    for game, seats in (("tienlen", 5), ("diu", 5), ("stud", 8), ("stud", 1)):
        with pytest.raises(ValidationError) as err:
            services.table_create(owner=user, name="Big", game=game, options={"seats": seats})
        assert "seats" in err.value.message_dict
    assert not Table.objects.exists()
    seven = services.table_create(owner=user, name="Seven", game="stud", options={"seats": 7})
    assert seven.seats.count() == 7


def test_extract_table_code_accepts_codes_and_links() -> None:
    assert extract_table_code("https://x.example/t/Ab3_xY-z/") == "Ab3_xY-z"
    assert extract_table_code("http://x/tables/Ab3_xY-z/?utm=1") == "Ab3_xY-z"
    assert extract_table_code("Ab3_xY-z") == "Ab3_xY-z"
    assert extract_table_code("not a link at all") is None


def test_join_by_link_redirects_to_the_table(client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="Private", visibility="private")
    link = f"http://testserver/t/{table.code}/"
    response = client.get(reverse("tables:join"), {"link": link})
    assert response.status_code == 302
    assert response["Location"] == f"/t/{table.code}/"
    response = client.get(reverse("tables:join"), {"link": table.code})
    assert response["Location"] == f"/t/{table.code}/"


def test_join_by_link_with_an_unknown_code_shows_an_error(client: Client) -> None:
    response = client.get(reverse("tables:join"), {"link": "Nope1234"})
    assert response.status_code == 404
    assert "No table has that code" in response.content.decode()
    response = client.get(reverse("tables:join"), {"link": "https://x/how-to-play/"})
    assert "not a table code" in response.content.decode()


def test_practice_creates_a_private_table_against_three_house_ais(user_client: Client) -> None:
    response = user_client.post(reverse("tables:practice"), {"level": "hard"})
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/t/{table.code}/"
    assert table.visibility == Table.Visibility.PRIVATE
    assert table.mode == "practice"
    seats = list(table.seats.order_by("index"))
    assert [s.kind for s in seats] == ["human", "house", "house", "house"]
    assert {s.house_level for s in seats[1:]} == {"hard"}
    # One click is enough: the start countdown is already running (or game 1 was dealt).
    assert table.starts_at is not None or Game.objects.filter(table=table).exists()


def test_practice_mixed_levels(user_client: Client) -> None:
    user_client.post(reverse("tables:practice"), {"level": "mixed"})
    levels = set(Seat.objects.filter(kind="house").values_list("house_level", flat=True))
    # the label's three rule-based levels ("Mixed: easy, medium and hard"), not expert
    assert levels == set(services.house_levels()[:3]) == {"easy", "medium", "hard"}


def test_practice_rejects_get_and_bad_levels(user_client: Client) -> None:
    assert user_client.get(reverse("tables:practice")).status_code == 405
    response = user_client.post(reverse("tables:practice"), {"level": "godlike"})
    assert response.status_code == 302
    assert not Table.objects.exists()


def test_table_page_for_a_player(user_client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="Bàn <b>một</b>")
    response = user_client.get(f"/t/{table.code}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bàn &lt;b&gt;một&lt;/b&gt;" in html  # escaped
    assert "<b>một</b>" not in html
    config = response.context["table_config"]
    assert config["ws"] == f"/ws/tables/{table.code}/"
    assert config["share_url"] == f"http://testserver/t/{table.code}/"
    assert config["user_id"] == user.pk
    assert response.context["my_seat"] == 0
    assert response.context["is_host"] is True
    assert 'id="table-config"' in html
    assert 'id="table-i18n"' in html
    assert 'src="/static/js/table.js"' in html


def test_table_page_strings_are_valid_json(client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="T")
    html = client.get(f"/t/{table.code}/").content.decode()
    start = html.index('<script type="application/json" id="table-i18n">') + len(
        '<script type="application/json" id="table-i18n">'
    )
    strings = json.loads(html[start : html.index("</script>", start)])
    assert strings["combo_pair"].startswith("Đôi")
    assert strings["reason_den_bai"] == "đền bài"
    assert strings["turn_of"] == "{name}'s turn"


def test_table_page_for_a_spectator(client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="Watch me")
    response = client.get(f"/t/{table.code}/")
    assert response.status_code == 200
    assert response.context["my_seat"] is None
    assert response.context["table_config"]["authenticated"] is False
    assert "Log in to take a seat" in response.content.decode()


def test_private_table_is_reachable_only_with_its_code(client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="Secret", visibility="private")
    home = client.get("/").content.decode()
    assert "Secret" not in home
    assert client.get("/t/WrongCode1/").status_code == 404
    assert client.get(f"/t/{table.code}/").status_code == 200
    assert client.get(f"/tables/{table.code}/").status_code == 200


def test_home_has_quick_actions_public_tables_and_lobby_chat(client: Client) -> None:
    owner = UserFactory.create(username="host", display_name="Host")
    table = services.table_create(owner=owner, name="Open table")
    html = client.get("/").content.decode()
    assert f"/tables/{table.code}/" in html
    assert 'action="/tables/join/"' in html
    assert 'action="/tables/practice/"' in html
    assert 'data-ws="/ws/lobby/"' in html


def test_vietnamese_with_lang_cookie(client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="T")
    client.cookies["django_language"] = "vi"
    html = client.get(f"/t/{table.code}/").content.decode()
    assert 'lang="vi"' in html
    assert "Sẵn sàng" in html  # Ready
    assert "Đang chờ" in html  # Waiting…
    html = client.get("/").content.decode()
    assert "Tạo bàn" in html


def test_vietnamese_with_lang_query(client: Client, user: Any) -> None:
    table = services.table_create(owner=user, name="T")
    response = client.get(f"/t/{table.code}/?lang=vi")
    assert 'lang="vi"' in response.content.decode()
    assert response.cookies["django_language"].value == "vi"
    # the choice sticks
    assert 'lang="vi"' in client.get("/").content.decode()


def test_a_bot_seats_timer_is_the_bots_limit_not_the_peoples_turn_time(
    user_client: Client, user: Any, settings: Any
) -> None:
    """Issue 25: in the Bot Arena a bot's box showed the people's 30 s timer, not its own 5 s
    (the board's timer for a bot seat: static/js/table.js turnTimer)."""
    settings.GAMES_BOT_DELAY_SECONDS = 0.8
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 5.0
    table = services.table_create(owner=user, name="Arena-ish")
    config = user_client.get(f"/t/{table.code}/").context["table_config"]
    assert config["bot_turn_seconds"] == 5.8
    script = (settings.BASE_DIR / "static" / "js" / "table.js").read_text()
    assert 'seat.kind === "bot"' in script
    assert "CFG.bot_turn_seconds" in script
