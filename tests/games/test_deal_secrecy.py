"""Deal secrecy (issue 24, hidden cards): games dealt the same cards (a Bot Arena duplicate set,
game n of every table of a tournament round) keep their hands, seed, replays, exports and lab
data hidden until every game of the deal is over (``games.deals``, docs/history.md); an
external bot's ``game_start`` carries only the public config (never a rotated deal's hands).

Bot seats play the house AI's move (tests/conftest.py ``bot_player``); games run through the
real services and tasks (tests/scheduler.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from bots.external import services as external
from bots.models import BotVersion
from games import deals, services
from games.engine.registry import find_game
from games.models import Game, Table
from games.tournaments import services as tournaments
from games.tournaments.models import Round, RoundTable
from tests.factories import BotVersionFactory, UserFactory
from tests.games.test_consumers_live import card_strings
from tests.games.tournaments.conftest import make_tournament
from tests.scheduler import FrozenClock, TestScheduler
from tests.ws import Conn, Frame, db, is_type, table_path

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _next_game_waits(settings: Any) -> None:
    """The next game waits for its timer (the test runs it), so a game ends before the next."""
    settings.GAMES_ARENA_NEXT_GAME_SECONDS = 5
    settings.GAMES_NEXT_GAME_SECONDS = 5


ENGINE = find_game("tienlen")
PERSPECTIVES = ("0", "1", "2", "3", "spectator")


def _dealt(game: Game) -> list[frozenset[str]]:
    state = ENGINE.new_game(game.config, game.seed)
    return [frozenset(hand) for hand in ENGINE.state_to_json(state)["dealt"]]


def _replay_hands(client: Client, game: Game, seat: str) -> Any:
    """The replay of ``game`` from ``seat`` (the JSON), or the refused response."""
    url = f"/tables/{game.table.code}/games/{game.number}/replay.json?seat={seat}"
    response = client.get(url)
    if response.status_code != 200:
        return response
    return response.json()


def _predicted(data: dict[str, Any]) -> list[frozenset[str]]:
    """The cards of each seat a replay's last step reveals (the hands the end shows)."""
    return [frozenset(cards or []) for cards in data["steps"][-1].get("hands") or []]


def _arena(owner: Any, versions: list[int], house: list[str]) -> Table:
    return services.table_create_arena(owner=owner, bot_version_ids=versions, house_levels=house)


def _refused(response: Any) -> None:
    assert response.status_code == 409, response.content[:300]
    assert json.loads(response.content)["error"] == deals.DEAL_IN_PLAY


def test_arena_set_keeps_its_deal_hidden_until_the_set_is_over(
    scheduler: TestScheduler, client: Client
) -> None:
    owner = UserFactory.create()
    ant = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    table = _arena(owner, [ant.pk], ["easy", "medium", "hard"])  # game 1, played to its end
    first = Game.objects.get(table=table, number=1)
    assert first.status == Game.Status.FINISHED
    assert not Game.objects.filter(table=table, number=2).exists()
    assert deals.game_deal(first).key == f"arena:{table.pk}:1"
    assert deals.deal_is_open(first)

    # game 2 will be dealt game 1's hands rotated: nothing of game 1 may show them now
    for seat in PERSPECTIVES:
        _refused(_replay_hands(client, first, seat))
    _refused(client.get(f"/tables/{table.code}/games/1/export.json"))
    page = client.get(f"/tables/{table.code}/games/1/replay/")
    assert page.status_code == 409
    assert b"deal_in_play" in page.content
    # the game page still shows the scores, never a card of the result
    detail = client.get(f"/tables/{table.code}/games/1/")
    assert detail.status_code == 200
    assert isinstance(first.result, dict)
    assert "hands" in first.result  # Tiến Lên's result holds the hands left
    meta = deals.deal_result(first, first.result)
    assert "hands" not in meta
    assert meta["scores"] == first.result["scores"]
    # the bot's owner gets no Replay lab either
    client.force_login(owner)
    lab = client.get(f"/api/games/{first.pk}/bot-moves/")
    assert lab.status_code == 409
    assert lab.json()["error"] == deals.DEAL_IN_PLAY

    scheduler.run_pending("games.next_game")  # game 2: the deal, rotated one seat
    second = Game.objects.get(table=table, number=2)
    assert _dealt(second) == [_dealt(first)[(s + 1) % 4] for s in range(4)]
    assert deals.deal_is_open(first)
    assert deals.deal_is_open(second)
    _refused(_replay_hands(client, second, "spectator"))

    for _ in range(2):  # games 3 and 4 close the set
        scheduler.run_pending("games.next_game")
    assert Game.objects.filter(table=table, number__lte=4, status="finished").count() == 4
    assert not deals.deal_is_open(first)
    data = _replay_hands(client, first, "spectator")
    revealed = _predicted(data)  # the deal shows, now that every game of it is over
    assert len(revealed) == 4
    assert any(revealed)
    assert all(r <= d for r, d in zip(revealed, _dealt(first), strict=True))
    assert client.get(f"/tables/{table.code}/games/1/export.json").status_code == 200
    # the next set is a new deal: game 5 opens its own
    scheduler.run_pending("games.next_game")
    fifth = Game.objects.get(table=table, number=5)
    assert deals.game_deal(fifth).key == f"arena:{table.pk}:5"
    assert deals.deal_is_open(fifth)


def test_external_bot_game_start_never_carries_the_rotated_hands(
    scheduler: TestScheduler,
) -> None:
    owner = UserFactory.create()
    bot = external.external_bot_create(owner=owner, name="Ext", game="tienlen")
    version = bot.versions.get()
    table = _arena(owner, [version.pk], ["easy", "medium", "hard"])
    scheduler.run_pending("games.next_game")  # game 2
    second = Game.objects.get(table=table, number=2)
    assert "hands" in second.config  # the rotated deal is stored as the engine's fixed deal
    frame = external.game_start_frame(second, 0)
    assert frame["config"] == deals.public_config(second.config)
    for key in deals.PRIVATE_CONFIG_KEYS:
        assert key not in frame["config"]
    # a reconnect sends the game_start of the game in progress: the same public config
    Game.objects.filter(pk=second.pk).update(status=Game.Status.RUNNING, ended_at=None)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.IN_PROGRESS)
    resumed = [f for f in external.external_resume(bot=bot) if f["type"] == "game_start"]
    assert [f["game_id"] for f in resumed] == [second.pk]
    assert "hands" not in resumed[0]["config"]
    text = json.dumps(resumed)
    for hand in _dealt(second)[1:]:
        assert not all(card in text for card in hand)


def test_external_bot_game_end_keeps_the_cards_while_the_deal_is_open(
    scheduler: TestScheduler,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    owner = UserFactory.create()
    bot = external.external_bot_create(owner=owner, name="Ext", game="tienlen")
    version = bot.versions.get()
    table = _arena(owner, [version.pk], ["easy", "medium", "hard"])
    first = Game.objects.get(table=table, number=1)
    assert first.status == Game.Status.FINISHED
    assert deals.deal_is_open(first)
    assert first.result is not None
    assert set(first.result) - set(deals.PUBLIC_RESULT_KEYS)  # the table's result shows more
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(external, "send", lambda bot_id, frame: sent.append(frame))
    monkeypatch.setattr(external, "external_game_started", lambda **kwargs: None)
    with django_capture_on_commit_callbacks(execute=True):
        external.external_game_finished(game=first, table=table)
    ends = [f for f in sent if f["type"] == "game_end"]
    assert ends
    assert set(ends[0]["result"]) <= set(deals.PUBLIC_RESULT_KEYS)
    assert ends[0]["result"]["scores"] == first.result["scores"]


def _start_round(clock: FrozenClock, scheduler: TestScheduler, t: Any) -> Round:
    tournaments.tournaments_tick()
    rnd = Round.objects.get(tournament=t, number=1)
    for _ in range(40):  # the countdown, then game 1 at every table (house AIs play at once)
        tables = RoundTable.objects.filter(round=rnd).values("table_id")
        if Game.objects.filter(table_id__in=tables, number=1, status="finished").count() == 2:
            break
        clock.advance(5)
        scheduler.run_due()
    return rnd


def test_tournament_round_replays_wait_for_every_table(
    clock: FrozenClock, scheduler: TestScheduler, client: Client
) -> None:
    t, _ = make_tournament(house=8, games_per_round=2, rounds=1)
    rnd = _start_round(clock, scheduler, t)
    tables = [rt.table for rt in RoundTable.objects.filter(round=rnd).order_by("index")]
    assert len(tables) == 2
    # game 2 of table A is played while table B has not dealt its game 2 yet
    pending = scheduler.take("games.next_game")
    mine = [p for p in pending if p.args[0] == tables[0].pk]
    others = [p for p in pending if p not in mine]
    assert mine
    assert others
    scheduler._run([(p.name, p.args) for p in mine])
    done = Game.objects.get(table=tables[0], number=2)
    assert done.status == Game.Status.FINISHED
    assert not Game.objects.filter(table=tables[1], number=2).exists()
    assert deals.game_deal(done).key == f"round:{rnd.pk}:2"
    assert deals.deal_is_open(done)
    for seat in PERSPECTIVES:  # anonymous: no hand of the deal table B is about to play
        _refused(_replay_hands(client, done, seat))
    _refused(client.get(f"/tables/{tables[0].code}/games/2/export.json"))

    scheduler._run([(p.name, p.args) for p in others])  # table B plays game 2 too
    other = Game.objects.get(table=tables[1], number=2)
    assert other.seed == done.seed
    assert other.status == Game.Status.FINISHED
    assert not deals.deal_is_open(done)
    data = _replay_hands(client, done, "spectator")
    revealed = _predicted(data)  # what it would have told table B's watchers before
    assert any(revealed)
    assert all(r <= d for r, d in zip(revealed, _dealt(other), strict=True))


# --------------------------------------------------------------------------- live spectators
ALL_CARDS = frozenset(
    card
    for hand in ENGINE.state_to_json(ENGINE.new_game({"players": 4}, 1))["dealt"]
    for card in hand
)


def _cards_in(frames: list[Frame]) -> set[str]:
    return set().union(*(card_strings(f) for f in frames)) & ALL_CARDS if frames else set()


def _round_tables(clock: FrozenClock, scheduler: TestScheduler) -> tuple[list[Table], Any, Any]:
    """A round of two tables of house AIs, game 1 over at both; game 2 waits at both: the
    pending ``next_game`` timers of table A and of table B."""
    t, _ = make_tournament(house=8, games_per_round=2, rounds=1)
    rnd = _start_round(clock, scheduler, t)
    tables = [rt.table for rt in RoundTable.objects.filter(round=rnd).order_by("index")]
    pending = scheduler.take("games.next_game")
    mine = [(p.name, p.args) for p in pending if p.args[0] == tables[0].pk]
    others = [(p.name, p.args) for p in pending if p.args[0] != tables[0].pk]
    assert mine
    assert others
    return tables, mine, others


async def test_tournament_spectator_gets_no_card_while_another_table_plays_the_deal(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    tables, mine, others = await db(lambda: _round_tables(clock, scheduler))
    watcher = Conn(table_path(tables[0].code))  # anonymous, like anyone with the link
    await watcher.open()
    # table A plays game 2 while table B has not dealt it yet: the same seed
    await db(lambda: scheduler._run(mine))
    ended = await watcher.until(is_type("game_ended", game=2))
    await watcher.drain()
    game = await db(lambda: Game.objects.get(table=tables[0], number=2))
    assert game.status == Game.Status.FINISHED
    assert await db(lambda: deals.spectator_access(game)) == deals.SPECTATOR_HIDDEN
    live = watcher.frames[1:]  # every frame since the connect's snapshot (game 1, closed)
    started = [f for f in live if f["type"] == "game_started"]
    updates = [f for f in live if f["type"] == "game_state_update"]
    assert started
    assert updates  # the moves still reach the spectator, as versions without cards
    for frame in [*started, *updates]:
        assert frame["hidden"] == deals.DEAL_IN_PLAY
        assert frame["state"] is None
        assert frame["events"] == []
    assert [f["version"] for f in updates] == list(range(1, len(updates) + 1))
    assert ended["hidden"] == deals.DEAL_IN_PLAY
    assert set(ended["result"]) <= set(deals.PUBLIC_RESULT_KEYS)
    assert ended["result"]["scores"] == game.result["scores"]
    assert ended["stats"]["longest"] is None
    assert not _cards_in(live)  # no card of the deal, in any frame

    # a page opened now (the snapshot) holds no card either
    late = Conn(table_path(tables[0].code))
    snap = await late.open()
    assert snap["game"]["number"] == 2
    assert snap["game"]["hidden"] == deals.DEAL_IN_PLAY
    assert snap["game"]["state"] is None
    assert not _cards_in([snap])
    await late.close()

    # table B plays game 2: the deal is over everywhere, A's spectators sync again with cards
    await db(lambda: scheduler._run(others))
    resync = await watcher.until(is_type("snapshot"))
    assert "hidden" not in resync["game"]
    assert resync["game"]["number"] == 2
    hands = resync["game"]["state"]["hands"]
    assert any(hands)
    assert _cards_in([resync])
    assert await db(lambda: deals.spectator_access(game)) == deals.SPECTATOR_FULL
    await watcher.close()


async def test_tournament_spectators_see_the_cards_when_no_other_table_waits(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    tables, mine, others = await db(lambda: _round_tables(clock, scheduler))
    await db(lambda: scheduler._run(others))  # table B plays game 2 first
    watcher = Conn(table_path(tables[0].code))
    await watcher.open()
    await db(lambda: scheduler._run(mine))  # A is the last table of the deal: nothing held
    ended = await watcher.until(is_type("game_ended", game=2))
    assert "hidden" not in ended
    assert "hands" in ended["result"]
    updates = watcher.of_type("game_state_update")
    assert updates
    assert all("hidden" not in f and f["state"] is not None for f in updates)
    assert _cards_in(updates)
    await watcher.close()


async def test_arena_spectator_gets_no_end_reveal_before_the_last_rotation(
    scheduler: TestScheduler,
) -> None:
    def arena() -> Table:
        owner = UserFactory.create()
        ant = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
        return _arena(owner, [ant.pk], ["easy", "medium", "hard"])

    table = await db(arena)  # game 1 played to its end
    watcher = Conn(table_path(table.code))
    snap = await watcher.open()
    assert snap["game"]["number"] == 1
    assert snap["game"]["hidden"] == deals.DEAL_IN_PLAY  # its end would show the hands
    assert snap["game"]["state"] is None
    for number in (2, 3):  # rotations of the same deal: live plays, no end reveal
        await db(lambda: scheduler.run_pending("games.next_game"))
        ended = await watcher.until(is_type("game_ended", game=number))
        assert ended["hidden"] == deals.DEAL_IN_PLAY
        assert set(ended["result"]) <= set(deals.PUBLIC_RESULT_KEYS)
        updates = [
            f for f in watcher.frames if f["type"] == "game_state_update" and f["game"] == number
        ]
        assert updates[-1]["hidden"] == deals.DEAL_IN_PLAY  # the move that ends it
        assert updates[-1]["state"] is None
        shown = [f["state"] for f in updates[:-1]]
        assert shown
        assert all(s is not None and not s.get("hands") for s in shown)
        assert all(not s["finished"] for s in shown)
    await db(lambda: scheduler.run_pending("games.next_game"))  # game 4, the last rotation
    last = await watcher.until(is_type("game_ended", game=4))
    assert "hidden" not in last
    assert any(last["result"]["hands"])
    final = [f for f in watcher.frames if f["type"] == "game_state_update" and f["game"] == 4]
    assert final[-1]["state"]["finished"]
    assert "hidden" not in final[-1]
    await watcher.close()


@pytest.mark.parametrize(
    ("language", "arena", "text"),
    [
        ("en", False, "Cards are hidden while this deal is still being played at another table."),
        ("vi", False, "Các lá bài được giấu trong khi ván chia này vẫn đang được chơi ở một bàn"),
        ("en", True, "The hands of this deal stay hidden until every rotation of it has been"),
        ("vi", True, "Bài của ván chia này được giấu cho đến khi mọi lượt xoay của nó"),
    ],
)
def test_the_table_page_has_the_hidden_deal_notice_in_both_languages(
    client: Client, scheduler: TestScheduler, language: str, arena: bool, text: str
) -> None:
    owner = UserFactory.create()
    if arena:
        ant = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
        table = _arena(owner, [ant.pk], ["easy", "medium", "hard"])
    else:
        table = services.table_create(owner=owner, name="T")
    client.cookies["django_language"] = language
    page = client.get(f"/t/{table.code}/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="hidden-view"' in body
    assert " ".join(text.split()) in " ".join(body.split())


# --------------------------------------------------------------------------- one program per game
def test_one_program_may_not_hold_two_seats_anywhere(client: Client) -> None:
    from django.core.exceptions import ValidationError

    from bots.matches.services import MatchError, match_create
    from games import programs
    from games.services import TableError, seat_add_bot
    from games.tournaments.services import TournamentError, entry_add_bot

    owner = UserFactory.create()
    v1 = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    v2 = BotVersionFactory.create(bot=v1.bot, number=v1.number + 1, status=BotVersion.Status.READY)
    other = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    ext_a = external.external_bot_create(owner=owner, name="Ext A", game="tienlen")
    ext_b = external.external_bot_create(owner=owner, name="Ext B", game="tienlen")
    xa, xb = ext_a.versions.get().pk, ext_b.versions.get().pk
    assert programs.same_program_twice([v1.pk, v2.pk])
    assert programs.same_program_twice([xa, xb])
    assert not programs.same_program_twice([v1.pk, other.pk, xa])

    # Bot Arena (service and form): the same bot twice, or two external bots of one owner
    for ids in ([v1.pk, v1.pk], [v1.pk, v2.pk], [xa, xa], [xa, xb]):
        with pytest.raises(ValidationError) as err:
            _arena(owner, ids, ["easy"])
        assert err.value.code == programs.SAME_PROGRAM_TWICE
    client.force_login(owner)
    client.cookies["django_language"] = "vi"
    page = client.post(
        "/bots/arena/",
        {"bots": [v1.pk, v2.pk], "house": ["easy"], "session_length": 16, "name": "x"},
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert Table.objects.count() == 0
    assert page.status_code == 200
    assert "Mỗi chương trình chỉ được giữ một ghế" in page.content.decode()
    # a table's add_bot: another version of a bot already seated
    table = services.table_create(owner=owner, name="T")
    seat_add_bot(table_id=table.pk, user=owner, seat=1, bot_version_id=v1.pk)
    with pytest.raises(TableError) as table_err:
        seat_add_bot(table_id=table.pk, user=owner, seat=2, bot_version_id=v2.pk)
    assert table_err.value.code == programs.SAME_PROGRAM_TWICE
    seat_add_bot(table_id=table.pk, user=owner, seat=1, bot_version_id=v2.pk)  # a swap is fine
    # a tournament: another version of a bot already entered
    t, _ = make_tournament(creator=owner)
    entry_add_bot(tournament_id=t.pk, user=owner, bot_version_id=v1.pk)
    with pytest.raises(TournamentError) as t_err:
        entry_add_bot(tournament_id=t.pk, user=owner, bot_version_id=v2.pk)
    assert t_err.value.code == programs.SAME_PROGRAM_TWICE
    # a Bot Lab match: one external program twice (a bot's versions may face each other)
    with pytest.raises(MatchError) as m_err:
        match_create(
            owner=owner,
            game="tienlen",
            entrants=[{"kind": "version", "version_id": xa}, {"kind": "version", "version_id": xb}],
            deals=1,
        )
    assert m_err.value.code == programs.SAME_PROGRAM_TWICE
