"""The Vietnamese text of the editor's reference panel: ``render_html(lang="vi")``.

The shared sections' entries are here; each game's are in its part of the reference
(``BotReference.vi`` / ``keep``, ``games/engine/<game>/reference.py``), and :func:`vi_table` /
:func:`keep_texts` join them for the games registered. Each entry maps an English text of a
panel section (a title, paragraph, list item, table header
or cell, whitespace normalised) to its Vietnamese text, with the same `code`, **bold** and
[links](url). :data:`KEEP` lists the texts shown as they are in Vietnamese too (type names,
the games' own names). Code blocks (the example ``gameState``, the minimal bots) are not
translated, and ``docs/bot-api.md`` stays English. A test fails when a panel text has neither
an entry nor a place in :data:`KEEP`, or when an entry no longer matches any text.
"""

from __future__ import annotations

from games.engine.core.reference import normal
from games.engine.registry import GAMES

__all__ = ["KEEP", "VI", "keep_texts", "vi_table"]

#: Panel texts of the shared sections (and the games' type names) that read the same in
#: Vietnamese.
KEEP: frozenset[str] = frozenset(
    {
        "int",
        "card[]",
        "(int \\| null)[]",
        "object \\| null",
        "string",
        "int \\| null",
        "bool[]",
        "bool",
        "{type, cards}[]",
        "card",
        "card \\| null",
        "object[]",
        "int[]",
        "int[] \\| null",
        "object",
        "{action}[]",
        "(card \\| null)[]",
        "string \\| null",
        "{amount, eligible}[]",
        "{seat, action, auto}[]",
        "string[]",
        "object[][]",
        "string[][]",
    }
)

_PAIRS: tuple[tuple[str, str], ...] = (
    # runtime
    ("How your bot runs", "Bot của bạn chạy thế nào"),
    (
        """One sandboxed process per bot per game: top-level code runs once when the game
        starts, and globals you set persist from move to move within that game (not across
        games).""",
        """Mỗi bot có một tiến trình sandbox riêng cho mỗi ván: code ở cấp ngoài cùng chạy một
        lần khi ván bắt đầu, và các biến toàn cục bạn gán được giữ từ nước này sang nước
        khác trong ván đó (không sang ván khác).""",
    ),
    (
        """5 seconds per move (and 5 s for the top-level code). Synchronous code only: a
        returned Promise is a `bad_return`.""",
        """5 giây cho mỗi nước (và 5 s cho code ở cấp ngoài cùng). Chỉ code đồng bộ: trả về một
        Promise là `bad_return`.""",
    ),
    (
        """No I/O: no `require`, `fetch`, timers, `eval` or `Function`. Standard JavaScript
        (V8) is all there is.""",
        """Không có I/O: không có `require`, `fetch`, bộ hẹn giờ, `eval` hay `Function`. Chỉ có
        JavaScript chuẩn (V8).""",
    ),
    (
        """`console.log` (and `warn`, `error`…) is captured: up to 200 lines per move. You see
        it in Test Bot, and as the owner in the live game and the replay; opponents never
        do.""",
        """`console.log` (và `warn`, `error`…) được ghi lại: tối đa 200 dòng mỗi nước. Bạn xem
        được trong Thử bot, và với tư cách chủ bot trong ván đang chơi và bản xem lại; đối
        thủ thì không bao giờ.""",
    ),
    (
        "`Math.random` is seeded per game, so a replay behaves the same.",
        "`Math.random` được gieo hạt theo từng ván, nên bản xem lại chạy y hệt.",
    ),
    (
        """If the server process playing your game stops, another one takes the game over
        within seconds: it first plays your bot's earlier moves of the game again (the same
        `gameState`s, the same `Math.random` draws, their console output discarded), so your
        globals are as they were. That needs a deterministic bot: one that reads `Date.now()`
        may end up with other globals (the move's record then says `replay_diverged`). The
        move after such a replay shows `replayed` (how many moves were played again) in your
        records and the Replay lab.""",
        """Nếu tiến trình máy chủ đang chạy ván của bạn dừng, một tiến trình khác nhận ván trong
        vài giây: trước hết nó chạy lại các nước trước đó của bot trong ván (cùng các
        `gameState`, cùng các lần rút `Math.random`, bỏ đầu ra console của chúng), nên các biến
        toàn cục của bạn vẫn như cũ. Điều đó cần bot tất định: bot đọc `Date.now()` có thể có
        biến toàn cục khác (bản ghi của nước đó khi ấy ghi `replay_diverged`). Nước đi sau lần
        chạy lại như vậy ghi `replayed` (số nước đã chạy lại) trong bản ghi của bạn và trong
        Replay lab.""",
    ),
    (
        """Saving a version plays validation games of the bot's game against copies of itself,
        one at every seat count the game allows (its sample table's size first, then the
        others), within one time budget: a version that crashes, times out, collects
        3 strikes, or ends a game without one legal move at any of them is marked **not
        ready** (the message names the seat count) and cannot be seated.""",
        """Lưu một phiên bản sẽ chơi các ván kiểm tra của trò chơi của bot với chính các bản
        sao của nó, một ván cho mỗi số ghế mà trò chơi cho phép (số ghế của bàn mẫu trước, rồi
        các số ghế khác), trong một ngân sách thời gian chung: phiên bản nào bị
        treo, quá giờ, bị 3 lỗi, hoặc kết thúc một ván mà không có nổi một nước hợp lệ ở bất
        kỳ ván nào trong số đó sẽ bị đánh dấu **chưa sẵn sàng** (thông báo nêu số ghế) và
        không thể được xếp vào bàn.""",
    ),
    (
        """A bot is written for one game, chosen when it is created (one of the games whose
        sections follow); it is offered only at tables of that game, and Test Bot runs it on that
        game's sample states.""",
        """Mỗi bot được viết cho một trò chơi, chọn khi tạo bot (một trong các trò chơi có phần
        riêng bên dưới); bot chỉ được mời vào bàn của trò chơi đó, và Thử bot chạy bot trên
        các thế bài mẫu của trò chơi đó.""",
    ),
)

#: The shared sections' English text → Vietnamese.
VI: dict[str, str] = {normal(en): normal(vi) for en, vi in _PAIRS}


def vi_table() -> dict[str, str]:
    """English panel text → Vietnamese: the shared sections' and every registered game's.

    >>> from bots.reference.vi import vi_table
    >>> vi_table()["Card objects"]
    'Đối tượng lá bài'
    """
    table = dict(VI)
    for game in GAMES.values():
        table.update({normal(en): normal(vi) for en, vi in game.bot_reference.vi})
    return table


def keep_texts() -> frozenset[str]:
    """The panel texts shown as they are in Vietnamese, shared and of every registered game.

    >>> from bots.reference.vi import KEEP, keep_texts
    >>> "Suijiang Diu (`diu`)" in keep_texts(), "Suijiang Diu (`diu`)" in KEEP
    (True, False)
    """
    return KEEP.union(*(game.bot_reference.keep for game in GAMES.values()))
