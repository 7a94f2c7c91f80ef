#!/usr/bin/env python3
"""A complete external bot for Tiến Lên Arena: plays Tiến Lên, Seven-Card Stud and Suijiang Diu.

Standard library plus one package: ``pip install websockets`` (version 13 or later).

    TLA_BOT_TOKEN=tlb_... python external_client.py --url wss://arena.example/ws/bot/

The token comes from My Bots (an external bot's page); it is read from the ``TLA_BOT_TOKEN``
environment variable so that it never shows in the process list. The program connects with
``Authorization: Bearer <token>``, answers every ``turn`` with a legal move in the same format
a JavaScript bot's ``getNextMove`` returns, and reconnects after a dropped connection (the
server re-sends the games in progress and the open turn). ``--games N`` stops after N games;
``--log FILE`` writes every frame received, one JSON object per line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

#: Close code of a refused or revoked token: reconnecting will not help.
CLOSE_UNAUTHORIZED = 4401


def choose_move(game: str, state: dict[str, Any]) -> dict[str, Any]:
    """The move for ``state`` (the turn's ``gameState``) of ``game``: the simplest legal one.
    Replace this with your strategy; the shapes are the JavaScript bots' (docs/bot-api.md)."""
    if game == "tienlen":
        moves = state.get("validMoves") or []
        if moves:  # every legal play; the first is the lowest
            return {"action": "play", "cards": moves[0]["cards"]}
        return {"action": "pass"}
    if game == "stud":
        legal = [m["action"] for m in state.get("validMoves") or []]
        for action in ("check", "call"):
            if action in legal:
                return {"action": action}
        return dict(state["validMoves"][0])
    if game == "diu":
        options = (state.get("prompt") or {}).get("options") or []
        for action in ("diu", "pass", "accept"):
            for option in options:
                if option.get("action") == action:
                    return dict(option)
        return dict(options[0])
    raise ValueError(f"unknown game {game!r}")


def guess_game(state: dict[str, Any]) -> str:
    """The game of a ``gameState`` (for a turn whose ``game_start`` was missed)."""
    if "prompt" in state:
        return "diu"
    return "stud" if "street" in state else "tienlen"


class Bot:
    def __init__(self, url: str, token: str, games: int, log: str | None) -> None:
        self.url, self.token, self.games_wanted = url, token, games
        self.log = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115
        self.games: dict[int, str] = {}  # game id -> game name, from game_start
        self.finished: set[int] = set()

    def done(self) -> bool:
        return bool(self.games_wanted) and len(self.finished) >= self.games_wanted

    def run(self) -> int:
        delay = 1.0
        while not self.done():
            try:
                with connect(
                    self.url,
                    additional_headers={"Authorization": f"Bearer {self.token}"},
                    open_timeout=10,
                ) as ws:
                    delay = 1.0
                    for text in ws:
                        frame = json.loads(text)
                        if self.log:
                            self.log.write(json.dumps(frame) + "\n")
                            self.log.flush()
                        reply = self.handle(frame)
                        if reply is not None:
                            ws.send(json.dumps(reply))
                        if self.done():
                            return 0
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == CLOSE_UNAUTHORIZED:
                    print("the token was refused", file=sys.stderr)
                    return 2
            except (OSError, InvalidStatus) as exc:
                print(f"connection failed: {exc}", file=sys.stderr)
            time.sleep(delay)
            delay = min(delay * 2, 30.0)
        return 0

    def handle(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        kind = frame.get("type")
        if kind == "game_start":
            self.games[frame["game_id"]] = frame["game"]
        elif kind == "turn":
            state = frame["gameState"]
            game = self.games.get(frame["game_id"]) or guess_game(state)
            move = choose_move(game, state)
            return {"type": "move", "game_id": frame["game_id"], "seq": frame["seq"], "move": move}
        elif kind == "game_end":
            self.finished.add(frame["game_id"])
            self.games.pop(frame["game_id"], None)
        elif kind == "error":
            print(f"error {frame.get('code')}: {frame.get('message')}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("TLA_URL", "ws://127.0.0.1:8000/ws/bot/"))
    parser.add_argument("--games", type=int, default=0, help="stop after this many games")
    parser.add_argument("--log", help="append every frame received to this file (JSON lines)")
    args = parser.parse_args(argv)
    token = os.environ.get("TLA_BOT_TOKEN", "")
    if not token:
        parser.error("set TLA_BOT_TOKEN to the bot's token")
    return Bot(args.url, token, args.games, args.log).run()


if __name__ == "__main__":
    sys.exit(main())
