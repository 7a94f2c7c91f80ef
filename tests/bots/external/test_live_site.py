"""External bots against a real daphne and a real worker: the example client
(bots/examples/external_client.py) plays whole games of every game as a subprocess; a socket
client checks moves, bad moves and reconnecting; the HTTP stream plays a whole game."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from bots.models import BotRatingEvent
from games import services
from games.engine.diu.cards import sort_cards
from games.engine.registry import find_game
from games.models import Action, Game, Seat, Table
from tests.bots.external.helpers import bot_table, card_ids, external_bot
from tests.bots.live import new_user, ready_version
from tests.bots.worker import ROOT, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: A JavaScript bot: the first legal play, else pass.
FIRST_MOVE_BOT = """
function getNextMove(s) {
  if (s.validMoves.length) return { action: "play", cards: s.validMoves[0].cards };
  return { action: "pass" };
}
"""

CLIENT = ROOT / "bots" / "examples" / "external_client.py"


def _ws(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws/bot/"


def _frames(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _run_client(base: str, token: str, log: Path, games: int = 1) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TLA_BOT_TOKEN": token}
    return subprocess.Popen(
        [sys.executable, str(CLIENT), "--url", _ws(base), "--games", str(games), "--log", str(log)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _finished(table: Table) -> Game | None:
    return Game.objects.filter(table=table, status=Game.Status.FINISHED).order_by("number").first()


def _assert_no_foreign_cards(game: Game, seat: int, frames: list[dict[str, Any]]) -> None:
    """Tiến Lên: a frame to the bot holds no card of another seat's hand that was not played
    before that frame's turn (the hands are re-dealt from the game's seed and config)."""
    engine = find_game(game.engine)
    start = engine.new_game(game.config, game.seed)
    hands = {s: card_ids(engine.bot_view(start, s)["myCards"]) for s in range(len(game.players))}
    mine = hands.pop(seat)
    assert mine
    assert all(hands.values())
    others = set().union(*hands.values())
    played = [
        (a.seq, set(a.payload.get("cards") or []))
        for a in Action.objects.filter(game=game).exclude(seat=seat).order_by("seq")
    ]

    def leaked(frame: dict[str, Any]) -> set[str]:
        before = frame.get("seq", game.version + 1)  # a turn's seq: its move's number
        public = set().union(set(), *(cards for seq, cards in played if seq < before))
        return (card_ids(frame) & others) - public

    # the check sees a card of another hand, if one were sent
    unplayed = sorted(others - set().union(set(), *(cards for _, cards in played)))
    assert unplayed  # someone still held cards at the end
    probe = {"type": "turn", "seq": 1, "gameState": {"lastPlay": {"cards": unplayed[:1]}}}
    assert leaked(probe) == set(unplayed[:1])
    checked = 0
    for frame in frames:
        if frame.get("game_id") != game.pk or frame["type"] == "game_end":
            continue  # game_end's result is what the whole table sees at the end
        assert not leaked(frame), f"{frame['type']} seq {frame.get('seq')}: {leaked(frame)}"
        checked += 1
    assert checked > 1


def _assert_no_foreign_down_cards(game: Game, seat: int, frames: list[dict[str, Any]]) -> None:
    """Stud: no frame before the end shows another seat's down cards (third street's, re-dealt
    from the game's seed), while the bot's own are in its turns."""
    engine = find_game(game.engine)
    start = engine.new_game(game.config, game.seed)
    down = {s: card_ids(engine.bot_view(start, s)["myDownCards"]) for s in range(len(game.players))}
    mine = down.pop(seat)
    others = set().union(*down.values())
    assert len(others) == 2 * len(down)
    playing = [f for f in frames if f.get("game_id") == game.pk and f["type"] != "game_end"]
    assert any(mine <= card_ids(f) for f in playing if f["type"] == "turn")
    assert all(not card_ids(f) & others for f in playing)
    probe = {"players": [{"cards": [{"rank": "?", "suit": "?", "id": sorted(others)[0]}]}]}
    assert card_ids(probe) & others  # the check would see one


def _scrambled(state: Any, seat: int, rng: random.Random) -> Any:
    """Diu: ``state`` with every tile ``seat`` cannot see (the other hands and the stock, and
    the other seats' deal) redistributed at random, each hand keeping its size."""
    hidden = [s for s in range(4) if s not in (seat, state.roles["D"])]
    pool = [tile for s in hidden for tile in state.hands[s]] + list(state.stock)
    dealt_pool = [tile for s in hidden for tile in state.dealt[s]]
    rng.shuffle(pool)
    rng.shuffle(dealt_pool)
    hands = [list(h) for h in state.hands]
    dealt = [list(d) for d in state.dealt]
    for s in hidden:
        size, dealt_size = len(hands[s]), len(dealt[s])
        hands[s], pool = sort_cards(pool[:size]), pool[size:]
        dealt[s], dealt_pool = sort_cards(dealt_pool[:dealt_size]), dealt_pool[dealt_size:]
    return dataclasses.replace(state, hands=hands, stock=pool, dealt=dealt)


def _assert_no_hidden_tiles(game: Game, seat: int, frames: list[dict[str, Any]]) -> None:
    """Diu: nothing the bot is sent before the end says anything of another seat's hand or of
    the stock. Tiles of a kind are identical, so instead of looking for ids: every turn is
    exactly the seat's ``gameState`` of the real game at that point (the deal re-made from the
    game's seed and config, the recorded actions applied), and that ``gameState`` stays the
    same when the tiles the seat cannot see are redistributed at random; ``game_start`` carries
    the table's config, which holds no deal."""
    engine = find_game(game.engine)
    states = [engine.new_game(game.config, game.seed)]
    for action in Action.objects.filter(game=game).order_by("seq"):
        states.append(engine.apply(states[-1], action.payload)[0])
    assert len(states) == game.version + 1
    assert states[-1].finished
    rng = random.Random(f"{game.seed}:{seat}")
    dealt = states[0].hands
    playing = [f for f in frames if f.get("game_id") == game.pk and f["type"] != "game_end"]
    assert {f["type"] for f in playing} <= {"game_start", "turn", "error"}  # nothing else is sent
    turns = [f for f in playing if f["type"] == "turn"]
    assert turns
    # the first turn holds the bot's own dealt tiles, and the others' hands were dealt too
    # (states[k] is the state after k moves: a turn's seq is its move's number, k + 1)
    first = states[turns[0]["seq"] - 1]
    assert sorted(turns[0]["gameState"]["myCards"]) == sorted(first.hands[seat])
    assert all(dealt[s] for s in range(4) if s not in (seat, states[0].roles["D"]))
    for frame in playing:
        if frame["type"] == "game_start":
            assert frame["config"] == game.config
            assert not {"hands", "stock", "dealt"} & set(game.config)
            continue
        if frame["type"] == "error":
            assert set(frame) <= {"type", "code", "message", "game_id", "seq"}
            continue
        state = states[frame["seq"] - 1]
        seen = json.loads(json.dumps(engine.bot_view(state, seat)))
        assert frame["gameState"] == seen, f"turn {frame['seq']} is not the seat's view"
        for _ in range(3):
            other = _scrambled(state, seat, rng)
            assert json.loads(json.dumps(engine.bot_view(other, seat))) == seen, frame["seq"]
    # the check would see a leak: a view showing another hand changes when it is redistributed
    peek = next(s for s in range(4) if s not in (seat, first.roles["D"]))
    assert any(
        sorted(_scrambled(first, seat, rng).hands[peek]) != sorted(first.hands[peek])
        for _ in range(3)
    )


@pytest.mark.parametrize("game_name", ["tienlen", "stud", "diu"])
def test_the_example_client_plays_a_whole_game(
    live_site: str, tmp_path: Path, game_name: str
) -> None:
    owner = new_user(f"ext{game_name}")
    _bot, version, token = external_bot(owner, game_name)
    table = bot_table(owner, version, game=game_name, start=False)
    log = tmp_path / "frames.jsonl"
    proc = _run_client(live_site, token, log)
    try:
        wait_for(lambda: log.exists() and "hello" in log.read_text(), timeout=20)
        services.table_start(table_id=table.pk, user=owner)
        proc.wait(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    output = proc.stdout.read().decode() if proc.stdout else ""
    assert proc.returncode == 0, output
    game = _finished(table)
    assert game is not None
    seat = Seat.objects.get(table=table, kind=Seat.Kind.BOT).index
    assert Seat.objects.get(table=table, index=seat).strikes == 0, output
    moves = Action.objects.filter(game=game, seat=seat)
    assert moves.filter(actor=Action.Actor.BOT).exists()
    assert not moves.exclude(actor=Action.Actor.BOT).exists()
    frames = _frames(log)
    kinds = [f["type"] for f in frames]
    assert kinds[0] == "hello"
    assert "game_start" in kinds
    assert kinds[-1] == "game_end"
    assert "error" not in kinds, output
    turns = [f for f in frames if f["type"] == "turn"]
    assert len(turns) == moves.count()
    assert all(f["seat"] == seat and f["gameState"]["myPosition"] == seat for f in turns)
    # each turn's seq is the number its move has in the game's history (one numbering)
    assert [f["seq"] for f in turns] == list(moves.order_by("seq").values_list("seq", flat=True))
    if game_name == "tienlen":
        _assert_no_foreign_cards(game, seat, frames)
    if game_name == "stud":
        _assert_no_foreign_down_cards(game, seat, frames)
    if game_name == "diu":
        _assert_no_hidden_tiles(game, seat, frames)


def test_moves_are_checked_and_a_reconnecting_bot_resumes(live_site: str) -> None:
    owner = new_user("rex")
    bot, version, token = external_bot(owner)
    table = bot_table(owner, version, start=False)
    headers = {"Authorization": f"Bearer {token}"}

    def until(ws: Any, kind: str) -> dict[str, Any]:
        while True:
            frame = json.loads(ws.recv(timeout=20))
            if frame["type"] == kind:
                return dict(frame)

    with connect(_ws(live_site), additional_headers=headers) as ws:
        assert until(ws, "hello")["bot"]["id"] == bot.pk
        services.table_start(table_id=table.pk, user=owner)
        start = until(ws, "game_start")
        turn = until(ws, "turn")
        game = Game.objects.get(pk=start["game_id"])
        assert (start["game"], start["seat"], turn["seq"]) == (
            "tienlen",
            turn["seat"],
            game.version + 1,  # the number the move will have in the history
        )
        assert 0 < turn["deadline_ms"] <= 3000
        mine = {c["id"] for c in turn["gameState"]["myCards"]}
        foreign = next(c for c in ("2H", "2D", "2C", "2S", "AH", "AD") if c not in mine)
        bad = [
            (
                {
                    "game_id": game.pk,
                    "seq": turn["seq"],
                    "move": {"action": "play", "cards": [foreign]},
                },
                "illegal_move",
            ),
            ({"game_id": game.pk, "seq": turn["seq"] + 7, "move": {"action": "pass"}}, "stale_seq"),
            (
                {"game_id": game.pk + 1000, "seq": turn["seq"], "move": {"action": "pass"}},
                "unknown_game",
            ),
            ({"game_id": game.pk, "seq": turn["seq"], "move": {"action": "dance"}}, "illegal_move"),
        ]
        for body, code in bad:
            ws.send(json.dumps({"type": "move", **body}))
            error = until(ws, "error")
            assert error["code"] == code, (body, error)
        game.refresh_from_db()
        assert game.version == turn["seq"] - 1  # nothing changed
    # the socket dropped mid-turn: a new one gets the game and the open turn again
    with connect(_ws(live_site), additional_headers=headers) as ws:
        assert until(ws, "hello")["type"] == "hello"
        again = until(ws, "game_start")
        assert again["game_id"] == game.pk
        resumed = until(ws, "turn")
        assert resumed["seq"] == turn["seq"]
        assert resumed["deadline_ms"] < turn["deadline_ms"]
        moves = resumed["gameState"]["validMoves"]
        ws.send(
            json.dumps(
                {
                    "type": "move",
                    "game_id": game.pk,
                    "seq": resumed["seq"],
                    "move": {"action": "play", "cards": moves[0]["cards"]},
                }
            )
        )
        wait_for(lambda: Game.objects.get(pk=game.pk).version >= turn["seq"], timeout=10)
    seat = Seat.objects.get(table=table, index=turn["seat"])
    assert seat.strikes == 0
    first = Action.objects.get(game=game, seq=turn["seq"])
    assert (first.seat, first.actor) == (turn["seat"], Action.Actor.BOT)


def test_the_http_stream_plays_a_whole_game_and_refuses_bad_requests(live_site: str) -> None:
    owner = new_user("ned")
    _bot, version, token = external_bot(owner)
    table = bot_table(owner, version, start=False)
    url = live_site + "/api/bot/stream"

    def post(game_id: int, body: Any, auth: str | None = token) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{live_site}/api/bot/game/{game_id}/move",
            data=body if isinstance(body, bytes) else json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"}
            | ({"Authorization": f"Bearer {auth}"} if auth else {}),
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    for auth, code in [(None, "auth_required"), ("tlb_nope", "invalid_token")]:
        status, body = post(1, {"seq": 0, "move": {"action": "pass"}}, auth)
        assert (status, body["error"]["code"]) == (401, code)
        request = urllib.request.Request(
            url, headers={"Authorization": f"Bearer {auth}"} if auth else {}
        )
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=10)
        assert err.value.code == 401
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    errors: list[tuple[int, str]] = []
    with urllib.request.urlopen(request, timeout=30) as stream:
        hello = json.loads(stream.readline())
        assert hello["type"] == "hello"
        services.table_start(table_id=table.pk, user=owner)
        ended = None
        for raw in stream:
            if not raw.strip():
                continue  # keep-alive
            frame = json.loads(raw)
            if frame["type"] == "turn":
                status, body = post(frame["game_id"], b"{nope")
                errors.append((status, body["error"]["code"]))
                moves = frame["gameState"]["validMoves"]
                move = (
                    {"action": "play", "cards": moves[0]["cards"]} if moves else {"action": "pass"}
                )
                status, body = post(frame["game_id"], {"seq": frame["seq"], "move": move})
                assert (status, body["ok"], body["seq"]) == (200, True, frame["seq"]), body
            elif frame["type"] == "game_end":
                ended = frame
                break
    assert ended is not None
    assert set(errors) == {(400, "bad_json")}
    game = Game.objects.get(pk=ended["game_id"])
    assert game.status == Game.Status.FINISHED
    assert ended["result"] == game.result
    seat = Seat.objects.get(table=table, kind=Seat.Kind.BOT)
    assert seat.strikes == 0
    assert Action.objects.filter(game=game, seat=seat.index, actor=Action.Actor.BOT).count() == len(
        errors
    )


def test_an_absent_bot_times_out_and_is_disqualified_while_an_arena_rates_it(
    live_site: str,
) -> None:
    """No program connected: three timeouts disqualify the seat (the live tables' rule) and the
    arena game still ends and is rated, the external bot included."""
    owner = new_user("ari")
    bot, version, _ = external_bot(owner)
    js = ready_version(owner, FIRST_MOVE_BOT)
    table = services.table_create_arena(owner=owner, bot_version_ids=[version.pk, js.pk])
    game = wait_for(lambda: _finished(table), timeout=120)
    seat = Seat.objects.get(table=table, bot_version=version)
    assert seat.disqualified
    assert seat.strikes == 3
    strikes = [
        dict(a.bot_record or {}).get("strike")
        for a in Action.objects.filter(game=game, seat=seat.index, bot_record__isnull=False)
    ]
    assert strikes[:3] == ["timeout"] * 3
    wait_for(lambda: BotRatingEvent.objects.filter(game_id=game.pk).count() == 2, timeout=30)
    assert BotRatingEvent.objects.filter(game_id=game.pk, bot=bot).exists()
