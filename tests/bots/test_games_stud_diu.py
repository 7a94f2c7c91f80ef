"""Bots of Seven-Card Stud and Suijiang Diu: one JS bot system for every game (issues #7, #8).

A bot is written for one game (``Bot.game``): its validation game and Test Bot use that game's
engine, and it is offered (and accepted) only at tables of that game.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots.examples import example_code, examples_for, template_code
from bots.models import Bot, BotRating, BotVersion
from bots.samples import sample_cases
from bots.selectors import arena_version_choices, bot_seat_choices, practice_version_choices
from bots.services import bot_create, bot_test_run, botversion_validate
from bots.validation import play_validation_game
from games import services
from games.engine.registry import find_game
from games.models import Action, Game, Seat, Table
from tests.bots.live import new_user, ready_version

EXAMPLES = [(g, e.key) for g in ("stud", "diu") for e in examples_for(g)]


# --------------------------------------------------------------------------- samples


@pytest.mark.parametrize("game", ["stud", "diu"])
def test_each_game_has_at_least_ten_fixed_samples_of_its_own_engine(game: str) -> None:
    cases = sample_cases(game)
    assert len(cases) >= 10
    assert [c.key for c in cases] == [c.key for c in sample_cases(game)]  # deterministic
    engine: Any = find_game(game)
    kinds = set()
    for case in cases:
        view = case.view()
        assert view["game"] == game
        assert view["myPosition"] == case.seat
        # the sample's seat is the one the engine waits for, and it has something to answer
        assert engine.round_status(case.state).pending[0] == case.seat
        assert engine.legal_actions(case.state, case.seat)
        kinds.add(case.title)
    assert len(kinds) >= 5  # different situations, not one state ten times


def test_stud_samples_show_no_other_seats_down_cards() -> None:
    for case in sample_cases("stud"):
        view = case.view()
        for player in view["players"]:
            if player["seat"] == case.seat:
                continue
            down = [c for i, c in enumerate(player["cards"]) if i not in (2, 3, 4, 5)]
            assert down == [None] * len(down)


def test_diu_samples_only_prompt_the_seat_asked() -> None:
    for case in sample_cases("diu"):
        view = case.view()
        assert view["prompt"] is not None
        assert view["prompt"]["options"]
        assert view["myRole"] != "D"


# --------------------------------------------------------------------------- examples


@pytest.mark.parametrize(("game", "key"), EXAMPLES)
def test_example_bots_pass_test_bot_and_their_validation_game(game: str, key: str) -> None:
    code = example_code(key)
    results = bot_test_run(code=code, game=game)
    assert len(results) == len(sample_cases(game))
    failed = [(r.key, r.error_code, r.error_message) for r in results if not r.ok]
    assert failed == []
    assert all(
        r.action is not None and r.action["seat"] == sample_cases(game)[r.index].seat
        for r in results
    )

    report = play_validation_game(code, seed=11, game=game)
    summary = report.summary()
    assert report.ready, summary["message"]
    assert summary["game"] == game
    assert summary["rules_version"] == find_game(game).rules_version
    assert summary["finished"] is True
    assert sum(summary["strikes"]) == 0
    assert summary["moves"] == summary["bot_moves_ok"] > 0
    assert sum(summary["scores"]) == 0


def test_validation_seats_follow_the_engine() -> None:
    stud = play_validation_game(template_code("stud"), seed=5, game="stud")
    diu = play_validation_game(template_code("diu"), seed=5, game="diu")
    assert (stud.players, diu.players) == (3, 4)
    assert len(stud.strikes) == 3
    # Diu's D sits the hand out: its copy is never asked
    d_seat = find_game("diu").new_game({"players": 4}, seed=diu.seed).roles["D"]
    assert all(r["seat"] != d_seat for r in diu.records)


@pytest.mark.parametrize("game", ["stud", "diu"])
def test_a_tienlen_bot_fails_the_other_games(game: str) -> None:
    code = template_code("tienlen")
    results = bot_test_run(code=code, game=game)
    assert results
    assert not any(r.ok for r in results)
    assert {r.error_kind for r in results} <= {"sandbox", "rules"}
    report = play_validation_game(code, seed=3, game=game)
    assert not report.ready
    assert report.reason in {"strikes", "no_legal_move"}


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["stud", "diu"])
def test_a_version_is_validated_with_its_bots_game(user: User, game: str) -> None:
    bot = bot_create(owner=user, name=f"{game} bot", game=game, code=template_code(game))
    version = botversion_validate(version_id=bot.versions.get().pk)
    assert version.status == BotVersion.Status.READY
    assert version.validation["game"] == game
    # the same code written as a Tiến Lên bot is not ready
    other = bot_create(owner=user, name="Wrong game", code=template_code(game))
    assert other.game == "tienlen"
    assert botversion_validate(version_id=other.versions.get().pk).status == "not_ready"


@pytest.mark.django_db
def test_unknown_game_is_refused(user: User) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as exc:
        bot_create(owner=user, name="Poker", game="poker")
    assert "game" in exc.value.message_dict
    assert not Bot.objects.exists()


# --------------------------------------------------------------------------- pages and API


@pytest.mark.django_db
def test_create_page_sets_the_game_and_its_template(user_client: Client, user: User) -> None:
    page = user_client.get(reverse("bots:list"))
    assert b'name="game"' in page.content
    response = user_client.post(reverse("bots:create"), {"name": "Studly", "game": "stud"})
    bot = Bot.objects.get(name="Studly")
    assert response.status_code == 302
    assert bot.game == "stud"
    assert bot.versions.get().code == template_code("stud")
    listing = user_client.get(reverse("bots:list")).content.decode()
    assert "Seven-Card Stud" in listing

    editor = user_client.get(reverse("bots:editor", args=[bot.pk]))
    html = editor.content.decode()
    config = editor.context["config"]
    assert config["bot"]["game"] == "stud"
    assert config["template"] == template_code("stud")
    assert {e["key"] for e in config["examples"]} == {"stud_caller", "stud_reader"}
    assert config["samples"] == len(sample_cases("stud"))
    assert config["static"]["dts"] is None
    assert "myDownCards" in html  # the stud reference is in the panel
    assert "playerCardCounts" not in html  # not Tiến Lên's
    assert "Seven-Card Stud" in html


@pytest.mark.django_db
def test_api_creates_a_diu_bot_runs_its_samples_and_keeps_its_game(
    user_client: Client,
) -> None:
    created = user_client.post(
        "/api/bots/",
        {"name": "Diu API", "game": "diu", "code": template_code("diu")},
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["game"] == "diu"
    bot_id = created.json()["id"]
    changed = user_client.patch(
        f"/api/bots/{bot_id}/", {"game": "stud"}, content_type="application/json"
    )
    assert changed.status_code == 400
    assert "game" in changed.json()
    assert Bot.objects.get(pk=bot_id).game == "diu"
    renamed = user_client.patch(
        f"/api/bots/{bot_id}/", {"name": "Diu 2"}, content_type="application/json"
    )
    assert renamed.status_code == 200
    assert renamed.json()["game"] == "diu"

    run = user_client.post(
        reverse("api:bot-test-run"),
        {"code": template_code("diu"), "game": "diu"},
        content_type="application/json",
    )
    assert run.status_code == 202  # the test scheduler ran it at once: already done
    body = run.json()
    assert body["total"] == len(sample_cases("diu"))
    assert body["passed"] == body["total"]
    bad = user_client.post(
        reverse("api:bot-test-run"),
        {"code": template_code("diu"), "game": "poker"},
        content_type="application/json",
    )
    assert bad.status_code == 400


@pytest.mark.django_db
def test_leaderboard_is_per_game(client: Client) -> None:
    owner = new_user("rated")
    tl = ready_version(owner, template_code("tienlen"), "TL rated")
    stud = ready_version(owner, template_code("stud"), "Stud rated", game="stud")
    for version, mu in ((tl, 30.0), (stud, 28.0)):
        BotRating.objects.create(bot=version.bot, mu=mu, sigma=2.0, ordinal=mu - 6, games=3)
    default = client.get(reverse("bots:leaderboard")).content.decode()
    assert "TL rated" in default
    assert "Stud rated" not in default
    studs = client.get(reverse("bots:leaderboard"), {"game": "stud"}).content.decode()
    assert "Stud rated" in studs
    assert "TL rated" not in studs
    api = client.get("/api/bots/leaderboard/", {"game": "stud"}).json()
    rows = api["results"] if isinstance(api, dict) else api
    assert [r["name"] for r in rows] == ["Stud rated"]
    assert rows[0]["rank"] == 1


# --------------------------------------------------------------------------- seating


@pytest.mark.django_db
def test_seat_choices_offer_only_bots_of_the_tables_game() -> None:
    owner = new_user("chooser")
    tl = ready_version(owner, template_code("tienlen"), "Tien")
    stud = ready_version(owner, template_code("stud"), "Studder", game="stud")
    assert [v for v, _ in bot_seat_choices(owner, game="stud")] == [f"bot:{stud.pk}"]
    assert [v for v, _ in bot_seat_choices(owner, game="tienlen")] == [f"bot:{tl.pk}"]
    labels = dict(bot_seat_choices(owner))
    assert labels[f"bot:{stud.pk}"] == f"Studder v{stud.number} · Seven-Card Stud"
    # arena and practice tables deal Tiến Lên
    assert [v for v, _ in arena_version_choices(owner)] == [str(tl.pk)]
    assert [v for v, _ in practice_version_choices(owner)] == [str(tl.pk)]


@pytest.mark.django_db
def test_forged_wrong_game_bot_is_refused_everywhere(client: Client) -> None:
    owner = new_user("forger")
    client.force_login(owner)
    tl = ready_version(owner, template_code("tienlen"), "Tien")
    tl2 = ready_version(owner, template_code("tienlen"), "Tien 2")
    stud = ready_version(owner, template_code("stud"), "Studder", game="stud")

    # Create Table: a Tiến Lên bot posted for a stud table
    data = {
        "name": "Forged",
        "game": "stud",
        "seats": "3",
        "seat_1": f"bot:{tl.pk}",
        "seat_2": "house:easy",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
    }
    response = client.post(reverse("tables:create"), data)
    assert response.status_code == 200
    assert "this table&#x27;s game" in response.content.decode()
    assert not Table.objects.exists()
    # the right game's bot is accepted
    response = client.post(reverse("tables:create"), data | {"seat_1": f"bot:{stud.pk}"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert Seat.objects.get(table=table, index=1).bot_version_id == stud.pk

    # the lobby's add-bot: a Tiến Lên bot at the stud table
    with pytest.raises(services.TableError) as exc:
        services.seat_add_bot(table_id=table.pk, user=owner, seat=2, bot_version_id=tl.pk)
    assert exc.value.code == "unknown_bot"
    assert "plays tienlen" in str(exc.value)
    assert Seat.objects.get(table=table, index=2).kind == Seat.Kind.HOUSE

    # arena and practice (Tiến Lên tables) refuse a stud bot
    response = client.post(
        reverse("bots:arena"),
        {"bots": [str(tl.pk), str(stud.pk)], "session_length": "16", "public": "on"},
    )
    assert response.status_code == 200
    assert "ready Tiến Lên bots" in response.content.decode()
    response = client.post(reverse("bots:practice"), {"version": str(stud.pk)}, follow=True)
    assert "practice tables play Tiến Lên" in response.content.decode()
    assert Table.objects.count() == 1
    # while two Tiến Lên bots make an arena
    response = client.post(
        reverse("bots:arena"),
        {"bots": [str(tl.pk), str(tl2.pk)], "session_length": "16", "public": "on"},
    )
    assert response.status_code == 302
    assert Table.objects.count() == 2


# --------------------------------------------------------------------------- live tables


def _bot_table(owner: Any, game: str, versions: list[BotVersion]) -> Table:
    """A table of ``game`` with only user bots seated, started (its first game is played
    inline: countdown and bot delay are 0 in tests)."""
    table = services.table_create(
        owner=owner,
        name=f"{game} bots",
        game=game,
        options={"seats": len(versions), "mode": "casual"},
        seats=[services.SeatSpec(Seat.Kind.BOT, bot_version_id=v.pk) for v in versions],
        host_seated=False,
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    services.table_start(table_id=table.pk, user=owner)
    return table


def _assert_played_by_bots(table: Table, versions: list[BotVersion]) -> Game:
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    moves = list(Action.objects.filter(game=game).order_by("seq"))
    assert moves
    by_seat = {v.pk: i for i, v in enumerate(versions)}
    for action in moves:
        record = action.bot_record
        assert action.actor == Action.Actor.BOT, action.payload
        assert record is not None
        assert record["strike"] is None
        assert by_seat[record["bot_version_id"]] == action.seat
    assert not Seat.objects.filter(table=table, strikes__gt=0).exists()
    assert not Seat.objects.filter(table=table, disqualified=True).exists()
    return game


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_bots")
def test_real_bots_play_a_stud_table() -> None:
    owner = new_user("studhost")
    versions = [
        ready_version(owner, example_code("stud_reader"), "Reader", game="stud"),
        ready_version(owner, example_code("stud_caller"), "Caller", game="stud"),
        ready_version(owner, template_code("stud"), "Template", game="stud"),
    ]
    table = _bot_table(owner, "stud", versions)
    game = _assert_played_by_bots(table, versions)
    kinds = {a.payload["type"] for a in Action.objects.filter(game=game)}
    assert "bring_in" in kinds or "complete" in kinds
    assert game.scores is not None
    assert sum(game.scores) == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_bots")
def test_real_bots_play_a_diu_table() -> None:
    owner = new_user("diuhost")
    versions = [
        ready_version(owner, example_code("diu_builder"), "Builder", game="diu"),
        ready_version(owner, example_code("diu_random"), "Random", game="diu"),
        ready_version(owner, template_code("diu"), "Template", game="diu"),
        ready_version(owner, example_code("diu_builder"), "Builder 2", game="diu"),
    ]
    table = _bot_table(owner, "diu", versions)
    game = _assert_played_by_bots(table, versions)
    d_seat = game.state["roles"]["D"]
    assert not Action.objects.filter(game=game, seat=d_seat).exists()  # D sits out
    assert {a.payload["type"] for a in Action.objects.filter(game=game)} >= {"discard"}
    assert game.scores is not None
    assert sum(game.scores) == 0
