"""The duplicate-match core (games/engine/duplicate/, issue #16): rotations, the interval
maths, early stop, strikes and disqualification, determinism. Pure engine: no database."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games.engine.core.protocol import Game
from games.engine.duplicate import (
    STRIKES_TO_DISQUALIFY,
    Decision,
    DuplicateStats,
    Entrant,
    EntrantError,
    FirstLegalEntrant,
    GameOutcome,
    HouseEntrant,
    MatchProgress,
    Player,
    deal_seed,
    interval,
    match_config,
    plan_match,
    play_game,
    run_match,
    t_quantile,
)
from games.engine.registry import find_game

GAMES = ("tienlen", "stud", "diu")


def _seats(game: str) -> int:
    return {"tienlen": 4, "stud": 3, "diu": 4}[game]


def _field(game: str) -> list[Any]:
    n = _seats(game)
    levels = ["hard", "medium", "easy", "hard"][:n]
    return [HouseEntrant(lv, name=f"{lv}-{i}") for i, lv in enumerate(levels)]


# --------------------------------------------------------------------------- the plan


@pytest.mark.parametrize("n", range(2, 8))
def test_every_entrant_holds_every_seat_once_per_deal(n: int) -> None:
    plan = plan_match(n, 5, seed=11)
    assert len(plan) == 5 * n
    for d in range(5):
        games = [g for g in plan if g.deal_index == d]
        assert sorted(g.rotation for g in games) == list(range(n))
        assert len({g.deal_seed for g in games}) == 1  # one deal, replayed
        for seat in range(n):
            assert sorted(g.order[seat] for g in games) == list(range(n))
        for g in games:
            assert sorted(g.order) == list(range(n))  # a seating of the whole field
    assert len({g.deal_seed for g in plan}) == 5
    assert plan == plan_match(n, 5, seed=11)
    assert plan != plan_match(n, 5, seed=12)


def test_deal_seeds_are_stable_numbers() -> None:
    # the same on every machine and run: a match's report is reproducible from its seed
    assert deal_seed(1, 0) == deal_seed(1, 0)
    assert all(0 <= deal_seed(s, d) < 2**63 for s in (0, 1, "x") for d in range(20))
    assert deal_seed(1, 0) != deal_seed(2, 0)


class _Recorder:
    """An entrant that plays the house AI and notes the hand it was dealt in each game."""

    def __init__(self, name: str, seen: list[tuple[str, int, tuple[str, ...]]]) -> None:
        self.name = name
        self.seen = seen

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        recorder = self

        class _P:
            first = True

            def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
                if self.first:
                    hand = tuple(engine.view(state, seat)["hand"])
                    recorder.seen.append((recorder.name, state.seed, hand))
                    self.first = False
                return engine.house_action(state, seat, "medium")

            def close(self) -> None:
                return None

        return _P()


def test_each_entrant_plays_each_dealt_hand_once() -> None:
    engine = find_game("tienlen")
    seen: list[tuple[str, int, tuple[str, ...]]] = []
    field = [_Recorder(f"r{i}", seen) for i in range(4)]
    run_match(engine, field, deals=3, seed=5)
    config = match_config(engine, 4)
    for d in range(3):
        seed = deal_seed(5, d)
        dealt = engine.new_game(config, seed)
        hands = {tuple(engine.view(dealt, s)["hand"]) for s in range(4)}
        if dealt.finished:  # an instant win: nobody is asked
            continue
        for name in ("r0", "r1", "r2", "r3"):
            mine = [h for who, sd, h in seen if who == name and sd == seed]
            assert sorted(mine) == sorted(hands)  # every hand of the deal, once each


# --------------------------------------------------------------------------- the maths


def test_t_quantiles() -> None:
    assert t_quantile(1) == pytest.approx(12.706)
    assert t_quantile(30) == pytest.approx(2.042)
    # beyond the table: the Cornish–Fisher expansion, against published values
    for df, value in ((40, 2.021), (60, 2.000), (120, 1.980), (1000, 1.962)):
        assert t_quantile(df) == pytest.approx(value, abs=1.5e-3)
    with pytest.raises(ValueError, match="df must be"):
        t_quantile(0)


def test_interval_of_a_known_sample() -> None:
    values = [3.0, -1.0, 4.0, 1.0, 5.0, -9.0, 2.0, 6.0]
    mean = statistics.fmean(values)
    half = 2.365 * statistics.stdev(values) / math.sqrt(len(values))  # t(0.975, 7)
    low, high = interval(values) or (0, 0)
    assert low == pytest.approx(mean - half)
    assert high == pytest.approx(mean + half)
    assert interval([0.0, 0.0, 1.0, 0.5], lo=0.0, hi=1.0)[0] == 0.0  # type: ignore[index]
    assert interval([2.0]) is None


def _outcome(order: tuple[int, ...], points: tuple[float, ...], deal: int) -> GameOutcome:
    n = len(order)
    best = max(range(n), key=lambda s: points[s])
    worst = min(range(n), key=lambda s: points[s])
    return GameOutcome(
        deal_index=deal,
        rotation=order[0],
        deal_seed=deal,
        order=order,
        points=points,
        first=tuple(s == best for s in range(n)),
        last=tuple(s == worst for s in range(n)),
        moves=(2,) * n,
        move_ms=(3.0,) * n,
        strikes=(0,) * n,
        disqualified=(False,) * n,
        strike_codes=tuple({} for _ in range(n)),
        result={},
        record={},
    )


def test_deals_are_the_unit_of_the_intervals() -> None:
    # two entrants, three deals, each deal twice (seats swapped): seat 0 scores a[d]
    seat0 = [10.0, 4.0, -2.0]
    stats = DuplicateStats(["a", "b"], game="tienlen", seed=1)
    for d, p in enumerate(seat0):
        stats.add_deal([_outcome((0, 1), (p, -p), d), _outcome((1, 0), (p, -p), d)])
    report = stats.report()
    a, b = report["entrants"]
    # each entrant held seat 0 once per deal: its per-deal mean is 0 every time
    assert a["games"] == b["games"] == 6
    assert a["mean_points"] == b["mean_points"] == 0.0
    assert a["points_ci"] == [0.0, 0.0]
    # first places: each deal one win each out of two games -> 0.5 in every deal
    assert a["first_rate"] == 0.5
    assert a["first_ci"] == [0.5, 0.5]
    assert report["deals"] == 3
    assert report["games"] == 6
    assert a["mean_move_ms"] == 1.5
    assert a["moves"] == 12


def test_report_numbers_on_a_known_match() -> None:
    stats = DuplicateStats(["a", "b", "c"], game="stud")
    rows = [  # (deal, order, points)
        (0, (0, 1, 2), (6.0, -2.0, -4.0)),
        (0, (1, 2, 0), (1.0, 2.0, -3.0)),
        (0, (2, 0, 1), (0.0, 5.0, -5.0)),
        (1, (0, 1, 2), (-1.0, 4.0, -3.0)),
        (1, (1, 2, 0), (2.0, 2.5, -4.5)),
        (1, (2, 0, 1), (-6.0, 3.0, 3.0)),
    ]
    for d in (0, 1):
        stats.add_deal([_outcome(o, p, d) for dd, o, p in rows if dd == d])
    per_deal: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for d in (0, 1):
        sums = [0.0, 0.0, 0.0]
        for dd, order, points in rows:
            if dd == d:
                for seat, who in enumerate(order):
                    sums[who] += points[seat]
        for who in range(3):
            per_deal[who].append(sums[who] / 3)
    report = stats.report()
    for who, line in enumerate(report["entrants"]):
        expected = interval(per_deal[who])
        assert expected is not None
        assert line["mean_points"] == pytest.approx(statistics.fmean(per_deal[who]), abs=1e-4)
        assert line["points_ci"] == pytest.approx(list(expected), abs=1e-4)
    assert report["points_unit"] == "chips won or lost"
    assert [e["firsts"] for e in report["entrants"]] == [3, 1, 2]


# --------------------------------------------------------------------------- playing


@pytest.mark.parametrize("game", GAMES)
def test_a_match_of_house_levels(game: str) -> None:
    engine = find_game(game)
    field = _field(game)
    progress: list[int] = []
    result = run_match(
        engine, field, deals=3, seed=2, on_progress=lambda p: progress.append(p.deals_done)
    )
    report = result.report
    n = _seats(game)
    assert progress == [1, 2, 3]
    assert report["game"] == game
    assert report["deals"] == 3
    assert report["games"] == 3 * n
    assert [e["games"] for e in report["entrants"]] == [3 * n] * n
    # every game is zero-sum, and every entrant played every seat of every deal
    assert sum(e["mean_points"] for e in report["entrants"]) == pytest.approx(0, abs=1e-3)
    assert sum(e["firsts"] for e in report["entrants"]) <= 3 * n
    assert all(e["strikes"] == 0 for e in report["entrants"])
    assert len(result.series) == 3
    assert result.series[-1]["deals"] == 3
    assert result.series[-1]["mean_points"] == [e["mean_points"] for e in report["entrants"]]
    assert report["stopped"] is None
    assert report["deals_planned"] == 3


def _without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {
        **report,
        "entrants": [
            {k: v for k, v in e.items() if k != "mean_move_ms"} for e in report["entrants"]
        ],
    }


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_report_whatever_the_batching(game: str) -> None:
    engine = find_game(game)
    one = run_match(engine, _field(game), deals=4, seed="s")
    with ThreadPoolExecutor(max_workers=2) as pool:
        two = run_match(
            engine,
            _field(game),
            deals=4,
            seed="s",
            mapper=lambda fn, tasks: pool.map(fn, tasks),
            deals_per_batch=3,
        )
    assert _without_timing(one.report) == _without_timing(two.report)
    assert [p["mean_points"] for p in one.series] == [p["mean_points"] for p in two.series]
    other = run_match(engine, _field(game), deals=4, seed="t")
    assert [o["points_ci"] for o in other.report["entrants"]] != [
        o["points_ci"] for o in one.report["entrants"]
    ]


def test_stops_once_the_intervals_separate() -> None:
    engine = find_game("tienlen")
    field: list[Entrant] = [HouseEntrant("hard"), FirstLegalEntrant()]
    result = run_match(engine, field, deals=200, seed=3, stop_when_separated=True, min_deals=5)
    report = result.report
    assert report["stopped"] == "separated"
    assert 5 <= report["deals"] < 200
    assert len(result.series) == report["deals"]
    hard, weak = report["entrants"]
    assert hard["points_ci"][0] > weak["points_ci"][1]
    assert result.stats.separated(min_deals=5)
    # one deal less had not separated (it stopped at the first deal that did)
    shorter = run_match(engine, field, deals=report["deals"] - 1, seed=3)
    assert report["deals"] - 1 < 5 or not shorter.stats.separated(min_deals=5)
    # the stop point does not depend on how deals are batched
    batched = run_match(
        engine, field, deals=200, seed=3, stop_when_separated=True, min_deals=5, deals_per_batch=4
    )
    assert batched.report["deals"] == report["deals"]
    # without the flag, every deal is played
    assert run_match(engine, field, deals=12, seed=3).report["deals"] == 12


def test_should_stop_ends_the_match_between_deals() -> None:
    engine = find_game("stud")
    seen: list[MatchProgress] = []
    result = run_match(
        engine,
        _field("stud"),
        deals=50,
        seed=1,
        on_progress=seen.append,
        should_stop=lambda: len(seen) >= 4,
    )
    assert result.report["stopped"] == "stopped"
    assert result.report["deals"] == 4
    assert result.report["deals_planned"] == 50
    assert seen[-1].deals == 50
    assert seen[-1].games_done == 12


# --------------------------------------------------------------------------- strikes


class _Failing:
    """Fails according to ``how`` on every move: ``raise`` (an exception), ``illegal`` (a
    move the rules refuse), ``coded`` (an EntrantError with its code)."""

    def __init__(self, how: str, name: str = "failing") -> None:
        self.how = how
        self.name = name

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        how = self.how

        class _P:
            def decide(self, state: Any, seat: int) -> Mapping[str, Any] | Decision:
                if how == "raise":
                    raise RuntimeError("boom")
                if how == "coded":
                    raise EntrantError("timeout", "too slow", ms=5000.0)
                return {"type": "no-such-move"}

            def close(self) -> None:
                return None

        return _P()


class _TimeoutPolicy:
    """Plays exactly what the live tables play for a failing seat, without failing."""

    name = "timeout-policy"

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        class _P:
            def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
                return engine.timeout_action(state, seat)

            def close(self) -> None:
                return None

        return _P()


@pytest.mark.parametrize(
    ("how", "code"),
    [("raise", "exception"), ("illegal", "illegal:bad_action"), ("coded", "timeout")],
)
@pytest.mark.parametrize("game", GAMES)
def test_a_failing_entrant_gets_strikes_and_the_live_tables_move(
    game: str, how: str, code: str
) -> None:
    engine = find_game(game)
    n = _seats(game)
    config = match_config(engine, n)
    seed = deal_seed(9, 0)
    others = [HouseEntrant("medium").player(engine, seat=s, seed=0) for s in range(1, n)]
    failing = _Failing(how).player(engine, seat=0, seed=0)
    out = play_game(engine, config, seed, [failing, *others])
    same = play_game(
        engine, config, seed, [_TimeoutPolicy().player(engine, seat=0, seed=0), *others]
    )
    # the failing seat's moves are exactly the timeout policy's: the same game
    assert out.record["actions"] == same.record["actions"]
    assert out.points == same.points
    asked = same.moves[0]
    assert out.strikes[0] == min(asked, STRIKES_TO_DISQUALIFY)
    assert out.disqualified[0] == (asked >= STRIKES_TO_DISQUALIFY)
    assert out.moves[0] == min(asked, STRIKES_TO_DISQUALIFY)  # not asked once disqualified
    assert set(out.strike_codes[0]) <= {code}
    assert sum(out.strike_codes[0].values()) == out.strikes[0]
    assert out.strikes[1:] == (0,) * (n - 1)
    if how == "coded" and out.moves[0]:
        assert out.move_ms[0] == pytest.approx(5000.0 * out.moves[0])


def test_strikes_and_disqualifications_reach_the_report() -> None:
    engine = find_game("tienlen")
    result = run_match(engine, [_Failing("raise"), HouseEntrant("easy")], deals=4, seed=4)
    failing, house = result.report["entrants"]
    assert failing["strikes"] > 0
    assert house["strikes"] == 0
    assert failing["strike_codes"] == {"exception": failing["strikes"]}
    # strikes start again in every game: at most 3 per game, disqualified when it reached 3
    assert failing["strikes"] <= STRIKES_TO_DISQUALIFY * failing["games"]
    assert failing["disqualified"] >= 1


def test_the_field_must_fit_the_table() -> None:
    engine = find_game("diu")
    with pytest.raises(ValueError, match="4–4 seats"):
        run_match(engine, [HouseEntrant("easy")] * 3, deals=1, seed=1)
    with pytest.raises(ValueError, match="no house level"):
        run_match(find_game("stud"), [HouseEntrant("godlike"), HouseEntrant("easy")], 1, 1)


def test_a_stopped_match_resumes_where_it_stopped() -> None:
    engine = find_game("diu")
    whole = run_match(engine, _field("diu"), deals=5, seed=8)
    done: list[int] = []
    first = run_match(
        engine,
        _field("diu"),
        deals=5,
        seed=8,
        on_progress=lambda p: done.append(p.deals_done),
        should_stop=lambda: len(done) >= 2,
    )
    assert first.report["deals"] == 2
    saved = json.loads(json.dumps(first.stats.to_json()))  # through storage
    rest = run_match(
        engine,
        _field("diu"),
        deals=5,
        seed=8,
        resume=DuplicateStats.from_json(saved),
        series=first.series,
    )
    assert rest.report["deals"] == 5
    assert rest.report["stopped"] is None
    assert _without_timing(rest.report) == _without_timing(whole.report)
    assert [p["points_ci"] for p in rest.series] == [p["points_ci"] for p in whole.series]
    with pytest.raises(ValueError, match="another match"):
        run_match(engine, _field("diu"), deals=5, seed=9, resume=DuplicateStats.from_json(saved))
