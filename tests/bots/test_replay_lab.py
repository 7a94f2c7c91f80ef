"""The Replay lab (issue #16): a bot owner's moves with the exact gameState each received,
recomputed from the seed and the actions; Test Bot on such a real state; who may see what."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bots.examples import example_code, template_code
from bots.models import BotVersion
from games import history, services
from games.engine.registry import find_game
from games.engine.stud.cards import CARD_IDS as STUD_CARD_IDS
from games.engine.stud.rules import UP_POSITIONS
from games.engine.tienlen.cards import CARD_IDS as TIENLEN_CARD_IDS
from games.engine.tienlen.cards import mask_indices
from games.history.bot_lab import bot_moves
from games.models import Action, Game, Seat, Table
from tests.bots.live import ILLEGAL_BOT, hybrid_table, new_user, play_humans, ready_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]

#: Logs an FNV-1a hash of the canonical JSON (sorted keys) of every gameState it receives,
#: then plays as the wrapped bot does.
HASHING = """
function __canon(v) {
  if (Array.isArray(v)) return "[" + v.map(__canon).join(",") + "]";
  if (v !== null && typeof v === "object") {
    return "{" + Object.keys(v).sort().map(function (k) {
      return JSON.stringify(k) + ":" + __canon(v[k]);
    }).join(",") + "}";
  }
  return JSON.stringify(v);
}
function __fnv(s) {
  var h = 0x811c9dc5;
  for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
}
function getNextMove(gameState) {
  var text = __canon(gameState);
  console.log("state " + __fnv(text) + " " + text.length);
  return __inner(gameState);
}
"""


def hashing(code: str) -> str:
    """``code`` (a bot) wrapped so that it logs the hash of each gameState it receives."""
    return code.replace("function getNextMove(", "function __inner(", 1) + HASHING


def canon(value: Any) -> str:
    """The JS ``__canon`` of a JSON value (JSON.stringify's number and string forms)."""
    if isinstance(value, list):
        return "[" + ",".join(canon(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (json.dumps(k, ensure_ascii=False) + ":" + canon(value[k]) for k in sorted(value))
        return "{" + ",".join(items) + "}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def fnv(text: str) -> str:
    h = 0x811C9DC5
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h ^= units[i] | (units[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return format(h, "x")


def state_line(game_state: Any) -> str:
    """What the hashing bot logs for ``game_state`` (as the sandbox sends it: JSON)."""
    text = canon(json.loads(json.dumps(game_state, separators=(",", ":"))))
    return f"state {fnv(text)} {len(text)}"


def bots_table(owner: Any, game: str, versions: list[BotVersion]) -> Table:
    """A table of ``game`` with only user bots, started (its first game plays inline)."""
    table = services.table_create(
        owner=owner,
        name=f"{game} lab",
        game=game,
        options={"seats": len(versions), "mode": "casual"},
        seats=[services.SeatSpec(Seat.Kind.BOT, bot_version_id=v.pk) for v in versions],
        host_seated=False,
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    services.table_start(table_id=table.pk, user=owner)
    return table


GAME_BOTS: dict[str, list[str | None]] = {
    "tienlen": ["greedy", "random"],
    "stud": ["stud_reader", "stud_caller", None],
    "diu": ["diu_builder", "diu_random", None, "diu_builder"],
}


def played(game: str, owner: Any, rival: Any) -> tuple[Game, list[BotVersion]]:
    """A finished game of ``game`` between hashing bots: seat 0's is ``owner``'s, the rest
    ``rival``'s."""
    versions = []
    for i, key in enumerate(GAME_BOTS[game]):
        code = example_code(key) if key else template_code(game)
        versions.append(
            ready_version(owner if i == 0 else rival, hashing(code), f"{game} {i}", game=game)
        )
    table = bots_table(owner, game, versions)
    finished = Game.objects.get(table=table, number=1)
    assert finished.status == Game.Status.FINISHED
    return finished, versions


# --------------------------------------------------------------------------- the gameState


@pytest.mark.parametrize("game", ["tienlen", "stud", "diu"])
def test_recomputed_game_state_is_what_the_live_bot_received(game: str) -> None:
    owner, rival = new_user("owner"), new_user("rival")
    finished, versions = played(game, owner, rival)
    data = bot_moves(game=finished, user=owner)
    moves = data["moves"]
    recorded = Action.objects.filter(game=finished, seat=0).exclude(bot_record=None)
    assert [m["seq"] for m in moves] == list(recorded.order_by("seq").values_list("seq", flat=True))
    assert moves, "seat 0's bot made no move"
    assert {m["seat"] for m in moves} == {0}  # only the owner's bot
    assert data["seats"] == [
        {
            "seat": 0,
            "name": data["seats"][0]["name"],
            "bot_id": versions[0].bot_id,
            "bot_version": versions[0].number,
        }
    ]
    for move in moves:
        logged = [line for line in move["console"] if line.startswith("state ")]
        assert logged == [state_line(move["game_state"])], move["seq"]
        assert move["game_state"]["myPosition"] == 0
        record: Any = Action.objects.get(game=finished, seq=move["seq"]).bot_record
        assert move["returned"] == record["value"]
        assert move["move"] == record["move"]
        assert move["elapsed_ms"] == record["elapsed_ms"]
        assert move["strike"] is None
        assert move["editor_url"] == (
            f"/bots/{versions[0].bot_id}/?game={finished.pk}&seq={move['seq']}&seat=0"
        )
    # the rival sees their own seats' moves, never seat 0's
    theirs = bot_moves(game=finished, user=rival)
    assert theirs["moves"]
    assert 0 not in {m["seat"] for m in theirs["moves"]}
    assert {s["seat"] for s in theirs["seats"]} == set(range(1, len(versions)))


def _ids(value: Any) -> set[str]:
    """Every card id (``{"id": ...}`` objects) in a JSON value."""
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            found.add(value["id"])
        for v in value.values():
            found |= _ids(v)
    elif isinstance(value, list):
        for v in value:
            found |= _ids(v)
    return found


def test_served_states_hold_no_other_seats_hidden_cards() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    for game in ("tienlen", "stud"):
        finished, _ = played(game, owner, rival)
        engine = find_game(game)
        moves = {m["seq"]: m for m in bot_moves(game=finished, user=owner)["moves"]}
        actions = list(Action.objects.filter(game=finished).order_by("seq"))
        state = engine.new_game(finished.config, finished.seed)
        checked = 0
        for action in actions:
            move = moves.get(action.seq)
            if move is not None:
                served = _ids(move["game_state"])
                for other in range(1, int(finished.config["players"])):
                    if game == "tienlen":
                        hidden = {TIENLEN_CARD_IDS[i] for i in mask_indices(state.hands[other])}
                    else:
                        dealt = state.cards[other][: state.dealt[other]]
                        hidden = {
                            STUD_CARD_IDS[c] for i, c in enumerate(dealt) if i not in UP_POSITIONS
                        }
                    assert hidden
                    assert not hidden & served, (game, action.seq, other)
                checked += 1
            state, _ = engine.apply(state, action.payload)
        assert checked == len(moves) > 0


# --------------------------------------------------------------------------- who sees it


def test_api_is_for_the_bots_owner_only(client: Client) -> None:
    owner, rival, stranger = new_user("owner"), new_user("rival"), new_user("stranger")
    finished, _ = played("tienlen", owner, rival)
    url = reverse("api:game-bot-moves", args=[finished.pk])
    anonymous = client.get(url)
    assert anonymous.status_code in (401, 403)
    assert "game_state" not in anonymous.content.decode()

    client.force_login(owner)
    mine = client.get(url)
    assert mine.status_code == 200
    assert mine["Cache-Control"] == "private, no-store"
    body = mine.json()
    assert body["game"] == finished.pk
    assert body["engine"] == "tienlen"
    assert body["moves"]
    assert {m["seat"] for m in body["moves"]} == {0}
    assert client.get(reverse("api:game-bot-moves", args=[finished.pk + 1000])).json() == {
        "error": "not_found",
        "detail": "no such game, or none of your bots played in it",
    }

    client.force_login(stranger)
    other = client.get(url)
    assert other.status_code == 404
    assert other.json()["error"] == "not_found"
    assert "game_state" not in other.content.decode()

    # once the action rows are pruned, the archive gives the very same lab
    before = bot_moves(game=finished, user=owner)
    history.game_archive(game_id=finished.pk)
    finished.refresh_from_db()
    assert finished.archived_at is not None
    Action.objects.filter(game=finished).delete()
    assert bot_moves(game=finished, user=owner) == before

    # the replay page offers the lab to the owner only
    page = reverse("tables:replay", args=[finished.table.code, finished.number])
    assert 'id="rp-lab"' not in client.get(page).content.decode()
    client.force_login(owner)
    html = client.get(page).content.decode()
    assert f'data-lab-url="{url}"' in html
    assert 'id="rp-lab"' in html


def test_a_running_game_has_no_lab_and_a_stranger_never_one(client: Client) -> None:
    stranger, guest = new_user("stranger"), new_user("guest")
    table, version = hybrid_table(guest, hashing(example_code("greedy")), seats=2)
    # the bot at seat 1 is the guest's; the guest also plays seat 0
    services.table_start(table_id=table.pk, user=guest)
    running = play_humans(table, {0: guest}, until=lambda g: g.actions.filter(seat=1).exists())
    assert running.status == Game.Status.RUNNING
    client.force_login(guest)
    url = reverse("api:game-bot-moves", args=[running.pk])
    refused = client.get(url)
    assert refused.status_code == 409
    assert refused.json()["error"] == "not_finished"
    finished = play_humans(table, {0: guest})
    body = client.get(url).json()
    assert body["moves"]
    assert {m["seat"] for m in body["moves"]} == {1}
    # anyone but the bot's owner: nothing
    client.force_login(stranger)
    assert client.get(reverse("api:game-bot-moves", args=[finished.pk])).status_code == 404
    assert version.bot.owner_id == guest.pk


# --------------------------------------------------------------------------- Test Bot on a move

PASSING = """
function getNextMove(gameState) {
  console.log("now", gameState.myPosition);
  if (gameState.canPass) return { action: "pass" };
  return { action: "play", cards: gameState.validMoves[0].cards };
}
"""


def _run(client: Client, code: str, **move: Any) -> Any:
    return client.post(
        reverse("api:bot-test-run"),
        {"code": code, "game": move.pop("game", "tienlen"), "move": move},
        content_type="application/json",
    )


def test_test_bot_on_a_real_state_answers_beside_the_original(client: Client) -> None:
    owner, rival = new_user("owner"), new_user("rival")
    finished, versions = played("tienlen", owner, rival)
    moves = bot_moves(game=finished, user=owner)["moves"]
    client.force_login(owner)

    # the same code, on every move: the same answer (greedy is deterministic)
    same_code = versions[0].code
    first = moves[0]
    response = _run(client, same_code, game_id=finished.pk, seq=first["seq"], seat=0)
    assert response.status_code == 202, response.content
    run = response.json()
    assert run["status"] == "done"  # the tests' scheduler ran the task at once
    assert run["move"] == {"game_id": finished.pk, "seq": first["seq"], "seat": 0}
    lab = run["lab"]
    assert (lab["game_id"], lab["seq"], lab["seat"]) == (finished.pk, first["seq"], 0)
    assert lab["original"]["returned"] == first["returned"]
    assert lab["original"]["move"] == first["move"]
    assert lab["original"]["legal"] is True
    assert lab["new"]["ok"] is True
    assert lab["new"]["value"] == first["returned"]
    assert lab["new"]["legal"] is True
    assert lab["new"]["console"] == [state_line(first["game_state"])]  # the very same state
    assert lab["changed"] is False
    assert lab["same_action"] is True
    assert "results" not in run
    polled = client.get(run["url"]).json()
    assert polled["lab"] == lab

    # a changed answer: a move where greedy played, now a pass (legal when not leading)
    playing = next(
        m for m in moves if m["move"]["type"] == "play" and m["game_state"]["canPass"] is True
    )
    changed_run = _run(client, PASSING, game_id=finished.pk, seq=playing["seq"], seat=0).json()
    changed = changed_run["lab"]
    assert changed["changed"] is True
    # the move texts are in the reader's language, chosen when the run is read
    assert changed["new"]["move_text"] == "Passed"
    assert changed["original"]["move_text"].startswith("Played ")
    assert "i18n" not in changed["new"]
    assert "i18n" not in changed["original"]
    in_vi = client.get(changed_run["url"], HTTP_ACCEPT_LANGUAGE="vi").json()["lab"]
    assert in_vi["new"]["move_text"] == "Bỏ lượt"
    assert in_vi["original"]["move_text"] == "Đánh " + changed["original"]["move_text"][7:]
    assert changed["same_action"] is False
    assert changed["new"]["value"] == {"action": "pass"}
    assert changed["new"]["legal"] is True
    assert changed["new"]["action"] == {"type": "pass"}
    assert changed["new"]["console"] == ["now 0"]

    # an illegal answer is judged by the engine on the recomputed state
    bogus = (
        "function getNextMove(s) { return {action: 'play', cards: [s.myCards[0], s.myCards[0]]}; }"
    )
    illegal = _run(client, bogus, game_id=finished.pk, seq=first["seq"], seat=0).json()["lab"]
    assert illegal["new"]["ok"] is True
    assert illegal["new"]["legal"] is False
    assert illegal["new"]["error_kind"] == "rules"
    assert illegal["new"]["error_code"]
    assert illegal["changed"] is True

    # the samples path is unchanged
    samples = client.post(
        reverse("api:bot-test-run"), {"code": same_code}, content_type="application/json"
    ).json()
    assert samples["total"] == len(samples["results"]) >= 10
    assert "lab" not in samples


def test_struck_moves_are_in_the_lab_and_a_fix_shows_as_changed(client: Client) -> None:
    owner = new_user("owner")
    table, _ = hybrid_table(owner, ILLEGAL_BOT)
    services.table_start(table_id=table.pk, user=owner)
    finished = play_humans(table, {0: owner})
    moves = bot_moves(game=finished, user=owner)["moves"]
    assert len(moves) == 3  # three strikes, then the house plays the seat (no record)
    for n, move in enumerate(moves, start=1):
        assert move["strike"].startswith("illegal:")
        assert move["strikes"] == n
        assert move["returned"] == {"action": "play", "cards": [{"rank": "3", "suit": "S"}] * 2}
        assert move["move"]["type"] in ("pass", "play")  # the auto-move played for it
        assert move["game_state"]["myPosition"] == 1
    assert moves[-1]["disqualified"] is True
    client.force_login(owner)
    fixed = _run(client, PASSING, game_id=finished.pk, seq=moves[0]["seq"], seat=1).json()["lab"]
    assert fixed["original"]["legal"] is False
    assert fixed["original"]["strike"] == moves[0]["strike"]
    assert fixed["new"]["legal"] is True
    assert fixed["changed"] is True
    assert fixed["same_action"] is False


def test_forged_references_are_refused_with_a_code(client: Client) -> None:
    owner, rival, stranger = new_user("owner"), new_user("rival"), new_user("stranger")
    finished, _ = played("tienlen", owner, rival)
    mine = bot_moves(game=finished, user=owner)["moves"][0]
    theirs = bot_moves(game=finished, user=rival)["moves"][0]
    client.force_login(owner)

    def code_of(**move: Any) -> tuple[int, str]:
        response = _run(client, PASSING, **move)
        return response.status_code, response.json().get("code")

    assert code_of(game_id=finished.pk + 1000, seq=mine["seq"], seat=0) == (400, "not_found")
    assert code_of(game_id=finished.pk, seq=theirs["seq"], seat=1) == (400, "not_your_seat")
    assert code_of(game_id=finished.pk, seq=theirs["seq"], seat=0) == (400, "no_such_move")
    assert code_of(game_id=finished.pk, seq=10_000, seat=0) == (400, "no_such_move")
    assert code_of(game_id=finished.pk, seq=mine["seq"], seat=7) == (400, "not_your_seat")
    assert code_of(game_id=finished.pk, seq=mine["seq"], seat=0, game="stud") == (
        400,
        "wrong_game",
    )
    malformed = _run(client, PASSING, game_id="x", seq=mine["seq"], seat=0)
    assert malformed.status_code == 400
    assert "move" in malformed.json()
    client.force_login(stranger)
    assert code_of(game_id=finished.pk, seq=mine["seq"], seat=0) == (400, "not_found")
    # nothing was run or stored for any of them
    from django.core.cache import cache

    assert not any(cache.get(f"bots:test-run-slot:{u.pk}:0") for u in (owner, stranger))


# --------------------------------------------------------------------------- the editor


def test_editor_opens_on_a_move_of_its_own_bot_only(client: Client) -> None:
    owner, rival = new_user("owner"), new_user("rival")
    finished, versions = played("tienlen", owner, rival)
    move = bot_moves(game=finished, user=owner)["moves"][1]
    client.force_login(owner)
    page = client.get(move["editor_url"])
    assert page.status_code == 200
    lab = page.context["config"]["lab"]
    assert lab["ref"] == {"game_id": finished.pk, "seq": move["seq"], "seat": 0}
    assert lab["original"]["game_state"] == move["game_state"]
    assert lab["original"]["bot_version"] == versions[0].number
    assert lab["replay"].endswith(f"?seat=0#step-{move['seq']}")
    html = page.content.decode()
    assert 'id="panel-lab"' in html
    assert "js/bots/lab.js" in html

    # another bot of the same owner: refused with its code, the editor still opens
    other = ready_version(owner, template_code("tienlen"), "Other")
    wrong = client.get(
        reverse("bots:editor", args=[other.bot_id])
        + f"?game={finished.pk}&seq={move['seq']}&seat=0"
    )
    assert wrong.status_code == 404
    assert wrong.context["config"]["lab"] is None
    assert 'data-code="wrong_bot"' in wrong.content.decode()
    forged = client.get(move["editor_url"].replace("seat=0", "seat=1"))
    assert forged.status_code == 404
    assert 'data-code="not_your_seat"' in forged.content.decode()
    # the rival cannot open the owner's bot at all
    client.force_login(rival)
    assert client.get(move["editor_url"]).status_code == 404
    assert versions[0].bot.owner_id == owner.pk


# --------------------------------------------------------------------------- worker change


def test_a_bots_earlier_turns_are_the_labs_states_since_its_sandbox_last_started() -> None:
    """What a bot plays again when its game moves to another worker (bots.turns.earlier_turns,
    docs/bot-affinity.md): the states it got, as the lab recomputes them, and what it returned;
    only since its sandbox last started (a turn marked ``restarted`` began afresh; a turn that
    ran out of memory or crashed ended the sandbox); a turn that ran out of time is left out."""
    from bots.turns import earlier_turns

    owner, rival = new_user("owner"), new_user("rival")
    game, versions = played("tienlen", owner, rival)
    lab = [m for m in bot_moves(game=game, user=owner)["moves"] if m["seat"] == 0]
    assert len(lab) >= 5  # (13 cards: seat 0 moves more often than that)

    def turns() -> list[tuple[Any, Any]]:
        found = earlier_turns(game=game, seat=0, bot_version_id=versions[0].pk)
        return [(state, value) for state, value in found]

    assert turns() == [(m["game_state"], m["returned"]) for m in lab]
    assert earlier_turns(game=game, seat=0, bot_version_id=versions[1].pk) == []

    def mark(move: dict[str, Any], **fields: Any) -> None:
        action = Action.objects.get(game=game, seq=move["seq"])
        record = dict(action.bot_record or {}) | fields
        Action.objects.filter(pk=action.pk).update(bot_record=record)

    mark(lab[1], restarted=True)
    assert turns() == [(m["game_state"], m["returned"]) for m in lab[1:]]
    mark(lab[2], error_code="timeout")  # left out: it would take its whole time again
    assert turns() == [(m["game_state"], m["returned"]) for m in lab[1:2] + lab[3:]]
    mark(lab[3], error_code="memory")  # it ended the sandbox
    assert turns() == [(m["game_state"], m["returned"]) for m in lab[4:]]
    mark(lab[-1], error_code="crashed")  # the last one ended it: the next starts afresh
    assert turns() == []


def test_a_seats_first_turn_reads_one_small_query_not_the_games_moves(
    django_assert_num_queries: Any,
) -> None:
    """A seat with no stored move in the game (its first turn: every game's sandboxes are
    new) has no earlier turns, found by one query that reads no move; a seat with moves still
    gets its turns, from that query and the read of the game's moves."""
    from bots.turns import earlier_turns, earlier_turns_of_seats

    owner, rival = new_user("owner"), new_user("rival")
    game, versions = played("tienlen", owner, rival)
    seats = Action.objects.filter(game=game, seat__isnull=False).values_list("seat", flat=True)
    absent = 1 + max(int(seat) for seat in seats if seat is not None)
    with django_assert_num_queries(1) as context:  # a seat with no stored move
        assert earlier_turns(game=game, seat=absent, bot_version_id=versions[0].pk) == []
    assert "payload" not in context.captured_queries[0]["sql"]
    with django_assert_num_queries(2):
        assert earlier_turns(game=game, seat=0, bot_version_id=versions[0].pk)
    with django_assert_num_queries(2):  # several seats: the query asks about any of them
        found = earlier_turns_of_seats(game=game, seats={0: versions[0].pk, absent: 0})
        assert set(found) == {0}


def test_the_lab_shows_a_move_played_after_a_replay() -> None:
    """The owner sees in the lab that a move came after a worker change (``replayed``: how
    many earlier turns were played again; ``replay_diverged``: they came out otherwise)."""
    owner, rival = new_user("owner"), new_user("rival")
    game, _ = played("tienlen", owner, rival)
    moves = bot_moves(game=game, user=owner)["moves"]
    assert all(m["replayed"] is None for m in moves)  # no worker change in this game
    action = Action.objects.get(game=game, seq=moves[2]["seq"])
    record = dict(action.bot_record or {}) | {"replayed": 2, "replay_diverged": False}
    Action.objects.filter(pk=action.pk).update(bot_record=record)
    shown = bot_moves(game=game, user=owner)["moves"][2]
    assert (shown["replayed"], shown["replay_diverged"]) == (2, False)
