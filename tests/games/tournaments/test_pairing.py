"""Tournament pairing and standings (games/tournaments/pairing.py): pure, no database."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments import pairing
from games.tournaments.pairing import TableResult


def entrants_of(tables: list[list[int | None]]) -> list[int]:
    return [e for t in tables for e in t if e is not None]


def test_table_sizes_spread_the_fillers() -> None:
    assert pairing.table_sizes(8, 4) == [4, 4]
    assert pairing.table_sizes(7, 4) == [4, 3]
    assert pairing.table_sizes(6, 4) == [3, 3]
    assert pairing.table_sizes(9, 4) == [3, 3, 3]
    assert pairing.table_sizes(5, 2) == [2, 2, 1]


def test_round_robin_two_player_tables_meet_everyone_once() -> None:
    people = [11, 12, 13, 14, 15, 16]
    history: list[list[int | None]] = []
    for number in range(1, len(people)):
        history += pairing.round_robin_round(people, 2, number)
    met = pairing.meetings(history)
    assert {met[(a, b)] for a, b in combinations(people, 2)} == {1}


def test_round_robin_odd_count_gives_everyone_one_bye() -> None:
    people = [1, 2, 3, 4, 5]
    history: list[list[int | None]] = []
    for number in range(1, 6):
        history += pairing.round_robin_round(people, 2, number)
    met = pairing.meetings(history)
    assert {met[(a, b)] for a, b in combinations(people, 2)} == {1}
    assert [met[(pairing.FILLER, p)] for p in people] == [1, 1, 1, 1, 1]


def test_round_robin_four_player_tables_avoid_repeats() -> None:
    # 16 entrants at tables of 4: a resolvable design exists for 5 rounds; the search must
    # find at least 3 rounds with no pair meeting twice.
    people = list(range(1, 17))
    history: list[list[int | None]] = []
    for number in range(1, 4):
        tables = pairing.round_robin_round(people, 4, number, history)
        assert pairing.repeats(tables, pairing.meetings(history)) == 0
        history += tables
    assert max(pairing.meetings(history).values()) == 1


def test_swiss_pairs_neighbours_when_no_repeat_is_involved() -> None:
    assert pairing.swiss_round([4, 3, 2, 1], 2) == [[4, 3], [2, 1]]
    # 4 and 3 met: 4 plays the next best it has not met
    assert pairing.swiss_round([4, 3, 2, 1], 2, [[4, 3]]) == [[4, 2], [3, 1]]


def test_swiss_at_four_player_tables() -> None:
    order = list(range(1, 9))
    first = pairing.swiss_round(order, 4)
    assert first == [[1, 2, 3, 4], [5, 6, 7, 8]]
    second = pairing.swiss_round(order, 4, first)
    # every table mixes the two first-round tables: two from each
    for table in second:
        assert sum(1 for e in table if e in first[0]) == 2


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=13),
    k=st.integers(min_value=2, max_value=4),
    rounds=st.integers(min_value=1, max_value=5),
    swiss=st.booleans(),
    data=st.data(),
)
def test_every_round_seats_every_entrant_once(
    n: int, k: int, rounds: int, swiss: bool, data: st.DataObject
) -> None:
    people = list(range(100, 100 + n))
    history: list[list[int | None]] = []
    for number in range(1, rounds + 1):
        if swiss:
            order = data.draw(st.permutations(people))
            tables = pairing.swiss_round(order, k, history)
        else:
            tables = pairing.round_robin_round(people, k, number, history)
        assert all(len(t) == k for t in tables)
        assert sorted(entrants_of(tables)) == people
        assert all(any(e is not None for e in t) for t in tables)
        sizes = sorted(sum(1 for e in t if e is not None) for t in tables)
        assert sizes[-1] - sizes[0] <= 1 or k == 2
        history += tables


@settings(max_examples=60, deadline=None)
@given(half=st.integers(min_value=2, max_value=6), data=st.data())
def test_swiss_two_player_never_repeats_while_possible(half: int, data: st.DataObject) -> None:
    """With n even and fewer than n/2 rounds played, the graph of pairs not met yet has minimum
    degree >= n/2, so it has a perfect matching (Dirac): the Swiss round must find one."""
    n = 2 * half
    people = list(range(n))
    history: list[list[int | None]] = []
    for _ in range(half):
        order = data.draw(st.permutations(people))
        tables = pairing.swiss_round(order, 2, history)
        assert pairing.repeats(tables, pairing.meetings(history)) == 0
        history += tables


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=12))
def test_round_robin_two_player_full_cycle_property(n: int) -> None:
    people = list(range(n))
    cycle = n - 1 if n % 2 == 0 else n
    history: list[list[int | None]] = []
    for number in range(1, cycle + 1):
        history += pairing.round_robin_round(people, 2, number)
    met = pairing.meetings(history)
    assert all(met[(a, b)] == 1 for a, b in combinations(people, 2))


# --------------------------------------------------------------------------- standings
def test_seat_points_share_ties() -> None:
    assert pairing.seat_points([10, 0, 0, -10]) == [3.0, 1.5, 1.5, 0.0]
    assert pairing.seat_points([1, -1]) == [1.0, 0.0]
    assert pairing.seat_points([0, 0]) == [0.5, 0.5]


def test_standings_points_then_game_points() -> None:
    results = [
        TableResult((1, 2, 3, 4), (12, 4, -6, -10)),
        TableResult((1, 2, 3, 4), (-10, 20, -5, -5)),
    ]
    rows = pairing.standings([1, 2, 3, 4], results)
    # points: 1 -> 3 + 0 = 3; 2 -> 2 + 3 = 5; 3 -> 1 + 1.5 = 2.5; 4 -> 0 + 1.5 = 1.5
    assert [(r.entry, r.points, r.rank) for r in rows] == [
        (2, 5.0, 1),
        (1, 3.0, 2),
        (3, 2.5, 3),
        (4, 1.5, 4),
    ]
    assert rows[0].game_points == 24
    assert rows[0].played == 2


def test_standings_buchholz_breaks_a_points_and_game_points_tie() -> None:
    # 1 beat 3 (who went on to win), 2 beat 4 (who lost again): same points and game points
    results = [
        TableResult((1, 3), (5, -5)),
        TableResult((2, 4), (5, -5)),
        TableResult((3, 4), (5, -5)),
        TableResult((1, 2), (0, 0)),
    ]
    rows = pairing.standings([1, 2, 3, 4], results)
    one, two = next(r for r in rows if r.entry == 1), next(r for r in rows if r.entry == 2)
    assert (one.points, one.game_points) == (two.points, two.game_points) == (1.5, 5)
    assert one.buchholz > two.buchholz
    assert [r.entry for r in rows][:2] == [1, 2]
    assert (one.rank, two.rank) == (1, 2)


def test_standings_head_to_head_then_shared_rank() -> None:
    # 1 and 2 tie on points, game points and Buchholz; 2 beat 1 at their shared table
    results = [
        TableResult((1, 2, None), (-1, 1, 0)),
        TableResult((1, 2, None), (1, -1, 0)),
        TableResult((2, 1), (3, -3)),
        TableResult((1, 2), (3, -3)),
        TableResult((1, None), (0, 0)),
        TableResult((2, None), (0, 0)),
    ]
    rows = pairing.standings([1, 2], results)
    assert rows[0].points == rows[1].points
    assert rows[0].game_points == rows[1].game_points
    assert rows[0].head_to_head == rows[1].head_to_head
    assert [r.rank for r in rows] == [1, 1]  # level on everything: shared
    results.append(TableResult((2, 1), (1, -1)))
    rows = pairing.standings([1, 2], results)
    assert rows[0].entry == 2
    assert rows[0].points > rows[1].points


def test_standings_head_to_head_decides_a_full_tie() -> None:
    # 1 and 2: same points (2), same game points (0), same Buchholz; 1 beat 2 in their game
    results = [
        TableResult((1, 2), (2, -2)),
        TableResult((2, 3), (2, -2)),
        TableResult((3, 1), (2, -2)),
        TableResult((3, 4), (-2, 2)),
        TableResult((4, 1), (-2, 2)),
        TableResult((4, 2), (-2, 2)),
    ]
    rows = pairing.standings([2, 1, 3, 4], results)
    by = {r.entry: r for r in rows}
    assert (by[1].points, by[1].game_points) == (by[2].points, by[2].game_points)
    assert by[1].buchholz == by[2].buchholz
    assert by[1].head_to_head == 1.0
    assert by[2].head_to_head == 0.0
    assert by[1].rank < by[2].rank  # despite registering after 2


def test_meetings_ignore_filler_pairs() -> None:
    assert pairing.meetings([[1, None, None]]) == Counter({(pairing.FILLER, 1): 2})
