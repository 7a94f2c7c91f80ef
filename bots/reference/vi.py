"""The Vietnamese text of the editor's reference panel: ``render_html(lang="vi")``.

Each entry maps an English text of a panel section (a title, paragraph, list item, table header
or cell, whitespace normalised) to its Vietnamese text, with the same `code`, **bold** and
[links](url). :data:`KEEP` lists the texts shown as they are in Vietnamese too (type names,
the games' own names). Code blocks (the example ``gameState``, the minimal bots) are not
translated, and ``docs/bot-api.md`` stays English. A test fails when a panel text has neither
an entry nor a place in :data:`KEEP`, or when an entry no longer matches any text.
"""

from __future__ import annotations

__all__ = ["KEEP", "VI"]


def _normal(text: str) -> str:
    return " ".join(text.split())


#: Panel texts that read the same in Vietnamese.
KEEP: frozenset[str] = frozenset(
    {
        "Tiến Lên Miền Nam (`tienlen`)",
        "3 → 1 … K → 11, A → 12, 2 → 13",
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
        "Suijiang Diu (`diu`)",
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
        one at every seat count the game allows (Tiến Lên 4, 2 and 3 seats; stud 3, then 2
        and 4–7; Diu 4), within one time budget: a version that crashes, times out, collects
        3 strikes, or ends a game without one legal move at any of them is marked **not
        ready** (the message names the seat count) and cannot be seated.""",
        """Lưu một phiên bản sẽ chơi các ván kiểm tra của trò chơi của bot với chính các bản
        sao của nó, một ván cho mỗi số ghế mà trò chơi cho phép (Tiến Lên 4, 2 và 3 ghế;
        stud 3, rồi 2 và 4–7; Diu 4), trong một ngân sách thời gian chung: phiên bản nào bị
        treo, quá giờ, bị 3 lỗi, hoặc kết thúc một ván mà không có nổi một nước hợp lệ ở bất
        kỳ ván nào trong số đó sẽ bị đánh dấu **chưa sẵn sàng** (thông báo nêu số ghế) và
        không thể được xếp vào bàn.""",
    ),
    (
        """A bot is written for one game, chosen when it is created (`tienlen`, `stud` or
        `diu`); it is offered only at tables of that game, and Test Bot runs it on that
        game's sample states.""",
        """Mỗi bot được viết cho một trò chơi, chọn khi tạo bot (`tienlen`, `stud` hoặc `diu`);
        bot chỉ được mời vào bàn của trò chơi đó, và Thử bot chạy bot trên các thế bài mẫu
        của trò chơi đó.""",
    ),
    # tienlen
    (
        "Rules as implemented: [docs/rules/tienlen.md](rules/tienlen.md).",
        "Luật như được cài đặt: [docs/rules/tienlen.md](rules/tienlen.md).",
    ),
    # cards
    ("Card objects", "Đối tượng lá bài"),
    ("Every card in `gameState` is an object:", "Mỗi lá bài trong `gameState` là một đối tượng:"),
    ("field", "trường"),
    ("example", "ví dụ"),
    ("meaning", "ý nghĩa"),
    ("`♠ ♣ ♦ ♥` (lowest to highest)", "`♠ ♣ ♦ ♥` (từ thấp đến cao)"),
    (
        "rank + suit letter (`S C D H`), the engine's card id",
        "rank + chữ cái của chất (`S C D H`), mã lá bài của engine",
    ),
    (
        """Card strength is `value`, then suit (♠ < ♣ < ♦ < ♥). Lists of cards are sorted
        weakest first.""",
        """Độ mạnh của lá bài là `value`, rồi đến chất (♠ < ♣ < ♦ < ♥). Các danh sách lá bài
        được sắp từ yếu đến mạnh.""",
    ),
    # combinations
    ("Combinations (`type`)", "Các bộ bài (`type`)"),
    ("type", "loại"),
    ("what", "là gì"),
    ("one card", "một lá"),
    ("two cards of one rank", "hai lá cùng hạng"),
    ("three cards of one rank", "ba lá cùng hạng"),
    ("3+ consecutive ranks, no 2", "3+ hạng liên tiếp, không có 2"),
    ("3+ consecutive pairs (đôi thông), no 2", "3+ đôi liên tiếp (đôi thông), không có 2"),
    ("four of a kind (tứ quý)", "bốn lá cùng hạng (tứ quý)"),
    (
        """A single, pair or triple beats one with a weaker strongest card; a straight beats a
        shorter straight, or one of the same length with a weaker top card; a pairs run
        beats one of the same length with a weaker top card. Cuts (chặt): 3 đôi thông or tứ
        quý cut a single 2, and 4+ đôi thông also a pair of 2s; hàng cuts weaker hàng (see
        the rules page). 3 đôi thông and tứ quý need vòng (`hasVong`): the round's leader
        may not use them to cut. `validMoves` already applies every rule.""",
        """Lá lẻ, đôi hoặc bộ ba chặn được bộ cùng loại có lá mạnh nhất yếu hơn; sảnh chặn được
        sảnh ngắn hơn, hoặc sảnh cùng độ dài có lá cao nhất yếu hơn; đôi thông chặn được đôi
        thông cùng độ dài có lá cao nhất yếu hơn. Chặt: 3 đôi thông hoặc tứ quý chặt được
        một lá 2, và 4+ đôi thông chặt được cả đôi 2; hàng mạnh chặt hàng yếu hơn (xem trang
        luật). 3 đôi thông và tứ quý cần vòng (`hasVong`): người dẫn vòng không được dùng
        chúng để chặt. `validMoves` đã áp dụng mọi luật.""",
    ),
    # example
    ("Example", "Ví dụ"),
    (
        """Seat 3 of a 4-player game, after seat 0 led 3♠3♣, seat 1 passed and seat 2 played
        5♠5♣ (long lists shortened with `"…"`):""",
        """Ghế 3 của một ván 4 người, sau khi ghế 0 đánh 3♠3♣, ghế 1 bỏ lượt và ghế 2 đánh 5♠5♣
        (danh sách dài được rút gọn bằng `"…"`):""",
    ),
    # fields
    ("Fields", "Các trường"),
    (
        "The seed's fields, exactly as specified:",
        "Các trường của đặc tả gốc (seed), đúng như được quy định:",
    ),
    (
        "the bot's seat, `0..players-1`; turn order is seat+1 mod players",
        "ghế của bot, `0..players-1`; thứ tự lượt là ghế+1 mod số người chơi",
    ),
    ("the bot's hand", "bài trên tay của bot"),
    (
        """cards left per seat; opponents are `null` while the table option "hide hand counts"
        is on""",
        """số lá còn lại của từng ghế; của đối thủ là `null` khi tùy chọn bàn "ẩn số lá trên
        tay" đang bật""",
    ),
    (
        "every card played in the current round (vòng), in play order",
        "mọi lá đã đánh trong vòng hiện tại, theo thứ tự đánh",
    ),
    (
        "the play to beat; `null` when the bot leads the round",
        "bộ bài cần chặn; `null` khi bot dẫn vòng",
    ),
    ("seat that made it", "ghế đã đánh bộ đó"),
    ("its cards", "các lá của bộ đó"),
    (
        """`value` of its strongest card: a play of the same type needs a strongest card of at
        least this value (an equal value needs a higher suit)""",
        """`value` của lá mạnh nhất trong bộ: một bộ cùng loại cần lá mạnh nhất có giá trị ít
        nhất bằng số này (giá trị bằng nhau thì cần chất cao hơn)""",
    ),
    (
        "whose turn it is (the bot's own seat when it is asked)",
        "đến lượt ai (chính ghế của bot khi bot được hỏi)",
    ),
    (
        "seats locked out of the current round because they passed",
        "các ghế bị khóa khỏi vòng hiện tại vì đã bỏ lượt",
    ),
    ("round index in this game, from 0", "số thứ tự vòng trong ván này, từ 0"),
    ("the seat that led the game's first round", "ghế đã dẫn vòng đầu tiên của ván"),
    (
        "true for the game's first play (it must include `mustInclude`)",
        "true với nước đầu tiên của ván (nước đó phải có `mustInclude`)",
    ),
    ("always true when a bot is asked", "luôn là true khi bot được hỏi"),
    (
        """every legal play (not the pass), sorted by type (single, pair, triple, straight,
        pairs_run, four), then length, then strength. Every suit variant is listed.""",
        """mọi bộ hợp lệ (không tính bỏ lượt), sắp theo loại (single, pair, triple, straight,
        pairs_run, four), rồi độ dài, rồi độ mạnh. Mọi biến thể về chất đều được liệt kê.""",
    ),
    ("Extra fields for serious bots:", "Các trường bổ sung cho bot nghiêm túc:"),
    (
        "the game has ended (never true when a bot is asked)",
        "ván đã kết thúc (không bao giờ là true khi bot được hỏi)",
    ),
    ("seats at the table (2–4)", "số ghế ở bàn (2–4)"),
    (
        "the engine's rules version, e.g. `tienlen-1`",
        "phiên bản luật của engine, ví dụ `tienlen-1`",
    ),
    (
        "ranks in a straight / pairs run (1 otherwise)",
        "số hạng trong sảnh / đôi thông (các loại khác là 1)",
    ),
    ("its strongest card", "lá mạnh nhất của bộ"),
    (
        "false when the bot leads (a leader must play)",
        "false khi bot dẫn vòng (người dẫn vòng phải đánh)",
    ),
    (
        """the card the opening play must contain (3♠, or the lowest dealt card with 2–3
        players)""",
        "lá mà nước mở ván phải chứa (3♠, hoặc lá thấp nhất được chia khi có 2–3 người chơi)",
    ),
    (
        """whether the bot may cut with 3 đôi thông / tứ quý this round (the round's leader may
        not)""",
        """bot có được chặt bằng 3 đôi thông / tứ quý trong vòng này không (người dẫn vòng thì
        không)""",
    ),
    ("who led the current round", "ai đã dẫn vòng hiện tại"),
    (
        """this round in order: `{player, action: "play", type, cards}` or `{player, action:
        "pass"}`""",
        """vòng này theo thứ tự: `{player, action: "play", type, cards}` hoặc `{player, action:
        "pass"}`""",
    ),
    ("every card played so far in this game", "mọi lá đã đánh từ đầu ván đến giờ"),
    (
        """seats that emptied their hand, in order (only grows past one with the play-on
        option)""",
        "các ghế đã hết bài, theo thứ tự (chỉ có hơn một ghế khi bật tùy chọn chơi tiếp)",
    ),
    (
        "the open chặt chain: `{debtor, payee, points}`",
        "chuỗi chặt đang mở: `{debtor, payee, points}`",
    ),
    (
        "this game's points so far (chặt settled at round ends)",
        "điểm của ván này đến giờ (tiền chặt được tính khi kết thúc vòng)",
    ),
    (
        "those settled transfers `{from, to, points, reason}`",
        "các khoản chuyển đã tính đó `{from, to, points, reason}`",
    ),
    (
        "table-session totals before this game, when the table provides them",
        "tổng điểm của phiên bàn trước ván này, khi bàn cung cấp",
    ),
    (
        """Note on `minRankToBeat`: the seed's example shows `7` for a 7♦, which matches
        neither `value` (5) nor anything else in the seed; the engine uses the `value` scale
        throughout (a ruling of this project).""",
        """Ghi chú về `minRankToBeat`: ví dụ trong đặc tả gốc ghi `7` cho lá 7♦, không khớp với
        `value` (5) hay bất cứ thứ gì khác trong đặc tả; engine dùng thang `value` ở mọi nơi
        (một quyết định của dự án này).""",
    ),
    # return
    ("Return value", "Giá trị trả về"),
    (
        """A card object is read from `id` if present, else from `rank` + `suit` (letters,
        symbols and `T` for 10 are accepted). Order does not matter.""",
        """Một đối tượng lá bài được đọc từ `id` nếu có, nếu không thì từ `rank` + `suit` (chấp
        nhận chữ cái, ký hiệu và `T` cho 10). Thứ tự không quan trọng.""",
    ),
    # errors
    ("Error codes", "Mã lỗi"),
    (
        "`parse_bot_move` raises a `ValueError` whose `code` is one of:",
        "`parse_bot_move` ném ra một `ValueError` có `code` là một trong:",
    ),
    ("code", "mã"),
    ("when", "khi nào"),
    (
        "the return is not an object, `action` is not `play`/`pass`, or `cards` is not a list",
        """giá trị trả về không phải đối tượng, `action` không phải `play`/`pass`, hoặc `cards`
        không phải danh sách""",
    ),
    ("an entry of `cards` is not a card", "một phần tử của `cards` không phải lá bài"),
    ("a card is named twice", "một lá bị nêu hai lần"),
    (
        "(server-side mistake) the bot was asked out of turn",
        "(lỗi phía máy chủ) bot được hỏi khi chưa đến lượt",
    ),
    ("the bot passed earlier in this round", "bot đã bỏ lượt trước đó trong vòng này"),
    ("the bot leads the round and passed", "bot dẫn vòng nhưng lại bỏ lượt"),
    (
        "the cards are no combination, or the list is empty",
        "các lá không tạo thành bộ nào, hoặc danh sách rỗng",
    ),
    ("a card is not in the bot's hand", "một lá không có trên tay bot"),
    ("the opening play lacks `mustInclude`", "nước mở ván thiếu `mustInclude`"),
    (
        "the play neither beats nor cuts `lastPlay`",
        "bộ đánh ra không chặn được cũng không chặt được `lastPlay`",
    ),
    (
        "a cut with 3 đôi thông / tứ quý by the round's leader",
        "người dẫn vòng chặt bằng 3 đôi thông / tứ quý",
    ),
    ("the game has ended", "ván đã kết thúc"),
    (
        "When the bot itself fails, the sandbox reports one of:",
        "Khi chính bot bị lỗi, sandbox báo một trong:",
    ),
    (
        "the move (or the top-level code, when loading) ran past its 5 s budget",
        "nước đi (hoặc code ở cấp ngoài cùng, khi nạp) chạy quá ngân sách 5 s",
    ),
    (
        "the bot used more than its memory budget (about 50 MB of JavaScript heap)",
        "bot dùng quá ngân sách bộ nhớ (khoảng 50 MB heap JavaScript)",
    ),
    (
        "the code threw, while loading or in `getNextMove`; the message names the line",
        "code ném lỗi, khi nạp hoặc trong `getNextMove`; thông báo nêu số dòng",
    ),
    (
        """`getNextMove` returned no plain object (`undefined`, a Promise, an array, a cycle,
        more than 64 Ki characters of JSON…)""",
        """`getNextMove` không trả về một đối tượng thuần (`undefined`, một Promise, một mảng,
        một vòng tham chiếu, hơn 64 Ki ký tự JSON…)""",
    ),
    ("the code does not compile", "code không biên dịch được"),
    ("the code defines no function `getNextMove`", "code không định nghĩa hàm `getNextMove`"),
    (
        "the bot's process died; it is restarted for the next move (globals reset)",
        """tiến trình của bot đã chết; nó được khởi động lại cho nước sau (biến toàn cục bị đặt
        lại)""",
    ),
    (
        """Any error counts a strike and the house policy moves instead: pass, or when leading
        play the lowest single (`mustInclude` in the opening play).""",
        """Mọi lỗi đều bị tính một lỗi và máy đánh thay: bỏ lượt, hoặc khi dẫn vòng thì đánh lá
        lẻ thấp nhất (có `mustInclude` trong nước mở ván).""",
    ),
    # minimal
    ("A minimal bot", "Một bot tối giản"),
    # stud
    ("Seven-Card Stud (`stud`)", "Stud 7 lá (`stud`)"),
    (
        """Fixed-limit seven-card stud for 2–7 seats. Rules as implemented:
        [docs/rules/stud.md](rules/stud.md). One game is one hand; chips carry over within a
        table session.""",
        """Seven-card stud giới hạn cố định cho 2–7 ghế. Luật như được cài đặt:
        [docs/rules/stud.md](rules/stud.md). Mỗi ván là một tay bài; chip được giữ qua các
        ván trong một phiên bàn.""",
    ),
    # stud-cards
    ("Cards", "Lá bài"),
    (
        """Cards are objects `{rank, suit, value, id}` like Tiến Lên's, but `value` is the
        poker scale: 2 → 2 … 10 → 10, J → 11, Q → 12, K → 13, A → 14 (aces are also low in a
        5-high straight). Suits do not rank hands; they only break ties for the bring-in and
        an odd chip (♣ < ♦ < ♥ < ♠).""",
        """Lá bài là các đối tượng `{rank, suit, value, id}` như của Tiến Lên, nhưng `value`
        theo thang poker: 2 → 2 … 10 → 10, J → 11, Q → 12, K → 13, A → 14 (át cũng là lá
        thấp trong sảnh 5 cao). Chất không xếp hạng tay bài; chúng chỉ phân định bằng nhau
        khi chọn người bring-in và khi chia chip lẻ (♣ < ♦ < ♥ < ♠).""",
    ),
    # stud-example
    (
        """Seat 1 of 3 on fifth street, facing seat 0's bet of 10 (a real state from the
        engine; long lists shortened with `"…"`). `pots` hold the chips of earlier streets;
        this street's bets are in `players[].bet` until the street ends:""",
        """Ghế 1 trong 3 ghế ở street thứ 5, đứng trước mức cược 10 của ghế 0 (một trạng thái
        thật từ engine; danh sách dài được rút gọn bằng `"…"`). `pots` chứa chip của các
        street trước; tiền cược của street này nằm trong `players[].bet` cho đến khi street
        kết thúc:""",
    ),
    # stud-fields
    ("the bot's seat, `0..players-1`", "ghế của bot, `0..players-1`"),
    (
        "the bot's cards in deal order: down, down, four up cards (3rd–6th street), down",
        "các lá của bot theo thứ tự chia: úp, úp, bốn lá ngửa (street thứ 3–6), úp",
    ),
    ("its down (hole) cards only", "chỉ các lá úp (lá tẩy) của bot"),
    (
        """the turn: `amount_to_call`, `can_check`, `can_bet`, `bet_amount`, `can_raise`,
        `raise_amount`, `raise_count`, `can_complete`, `bring_in_amount`, `can_bet_big`,
        `big_bet_amount`, `legal_actions`, `time_limit`, `seat_index` (chips are totals put
        in by the action)""",
        """lượt đi: `amount_to_call`, `can_check`, `can_bet`, `bet_amount`, `can_raise`,
        `raise_amount`, `raise_count`, `can_complete`, `bring_in_amount`, `can_bet_big`,
        `big_bet_amount`, `legal_actions`, `time_limit`, `seat_index` (số chip là tổng số bỏ
        vào bởi hành động đó)""",
    ),
    (
        """every legal reply, e.g. `[{action: "fold"}, …]`""",
        """mọi cách trả lời hợp lệ, ví dụ `[{action: "fold"}, …]`""",
    ),
    (
        "3 to 7 (third street … seventh street, the river)",
        "3 đến 7 (street thứ 3 … street thứ 7, river)",
    ),
    ("the dealer button's seat", "ghế của nút dealer"),
    ("the seat that had to bring it in on third street", "ghế phải bring-in ở street thứ 3"),
    ("seat index", "số thứ tự ghế"),
    ("dealt in and not folded", "được chia bài và chưa bỏ bài"),
    ("folded this hand / no chips left behind", "đã bỏ bài trong tay này / không còn chip"),
    (
        "chips behind, bet this street, put in the pot this hand",
        "chip còn lại, tiền cược ở street này, tiền đã bỏ vào pot trong tay này",
    ),
    (
        """that seat's dealt cards in deal order as the bot sees them: others' down cards are
        `null` (shown only at a showdown)""",
        """các lá đã chia cho ghế đó theo thứ tự chia, như bot nhìn thấy: lá úp của người khác
        là `null` (chỉ lộ ra khi lật bài)""",
    ),
    ("its face-up cards", "các lá ngửa của ghế đó"),
    (
        """the best hand its up cards make (`high_card`, `pair`, `two_pair`, `three_of_a_kind`,
        …)""",
        """tay bài mạnh nhất mà các lá ngửa tạo thành (`high_card`, `pair`, `two_pair`,
        `three_of_a_kind`, …)""",
    ),
    (
        "main pot then side pots, with the seats that may win each (chips of earlier streets)",
        """pot chính rồi các pot phụ, với các ghế có thể thắng từng pot (chip của các street
        trước)""",
    ),
    ("chips behind per seat", "chip còn lại của từng ghế"),
    ("the bet to match on this street", "mức cược cần theo ở street này"),
    ("this street's actions so far, in order", "các hành động của street này đến giờ, theo thứ tự"),
    (
        "table-session chip totals, when the table provides them",
        "tổng chip của phiên bàn, khi bàn cung cấp",
    ),
    # stud-return
    (
        "The actions, when each is legal (always check `validMoves`):",
        "Các hành động, và khi nào mỗi hành động hợp lệ (luôn kiểm tra `validMoves`):",
    ),
    ("action", "hành động"),
    ("third street's low card posts the bring-in", "lá thấp ở street thứ 3 phải đặt bring-in"),
    (
        "bring it up to a full small bet (instead of the bring-in, or over it)",
        "nâng lên đủ một mức cược nhỏ (thay cho bring-in, hoặc sau bring-in)",
    ),
    ("give up the hand", "bỏ tay bài"),
    ("no bet to match", "không có mức cược nào cần theo"),
    ("match the current bet", "theo mức cược hiện tại"),
    (
        "open the betting (small bet on 3rd–4th street, big bet from 5th)",
        "mở cược (cược nhỏ ở street thứ 3–4, cược lớn từ street thứ 5)",
    ),
    (
        "the optional big bet on fourth street when an open pair shows",
        "cược lớn tùy chọn ở street thứ 4 khi có đôi ngửa",
    ),
    (
        "raise by one bet (a bet and three raises per street; a fourth is `cap_reached`)",
        """tố thêm một mức cược (mỗi street một lần cược và ba lần tố; lần tố thứ tư là
        `cap_reached`)""",
    ),
    (
        """Amounts are fixed by the limits (`yourTurn` shows them); a return never names an
        amount.""",
        """Số tiền do giới hạn cố định (`yourTurn` cho biết); giá trị trả về không bao giờ nêu
        số tiền.""",
    ),
    # stud-errors
    (
        "the return is not an object, or `action` is not one of the actions above",
        """giá trị trả về không phải đối tượng, hoặc `action` không phải một trong các hành
        động ở trên""",
    ),
    (
        "the action is not legal now (the message lists what is)",
        "hành động không hợp lệ lúc này (thông báo liệt kê những gì hợp lệ)",
    ),
    (
        "a raise after the last raise allowed on this street",
        "tố sau lần tố cuối cùng được phép ở street này",
    ),
    ("the hand has ended", "tay bài đã kết thúc"),
    (
        """On any error the house policy acts and a strike is counted: check when possible,
        else fold (the bring-in is posted when it is due).""",
        """Khi có lỗi, máy đánh thay và bị tính một lỗi: xem bài nếu được, nếu không thì bỏ bài
        (bring-in được đặt khi đến hạn).""",
    ),
    # diu
    (
        """绥江丢 for four seats: A, B and C play, D sits the hand out. Rules as implemented:
        [docs/rules/diu.md](rules/diu.md).""",
        """绥江丢 cho bốn ghế: A, B và C chơi, D ngồi ngoài tay bài đó. Luật như được cài đặt:
        [docs/rules/diu.md](rules/diu.md).""",
    ),
    (
        """A bot is asked whenever its seat is **prompted**, not only in seat order: to
        discard, to claim or pass a card that is up (a claim poll), to 丢 in a re-poll, or to
        accept an offer of its own claim. `gameState.prompt` says which; a bot in seat D is
        never asked.""",
        """Bot được hỏi mỗi khi ghế của nó **được nhắc**, không chỉ theo thứ tự ghế: để đánh
        bài, để ăn hoặc bỏ qua một lá đang mở (một lượt hỏi ăn), để 丢 trong lượt hỏi lại,
        hoặc để nhận lời mời lấy lá mà nó đã báo ăn. `gameState.prompt` cho biết là việc
        nào; bot ở ghế D không bao giờ được hỏi.""",
    ),
    # diu-example
    (
        """B is polled on the 45 that A discarded (long lists shortened with `"…"`):""",
        """B được hỏi về lá 45 mà A vừa đánh (danh sách dài được rút gọn bằng `"…"`):""",
    ),
    # diu-fields
    ("the bot's seat, `0..3`", "ghế của bot, `0..3`"),
    (
        "`A` (头家, leads), `B`, `C` (陪玩) or `D` (闲家: sits out, never asked)",
        """`A` (头家, đánh trước), `B`, `C` (陪玩) hoặc `D` (闲家: ngồi ngoài, không bao giờ được
        hỏi)""",
    ),
    (
        "the seat of each role, e.g. `{A: 2, B: 1, C: 0, D: 3}`",
        "ghế của từng vai, ví dụ `{A: 2, B: 1, C: 0, D: 3}`",
    ),
    (
        "the bot's hand as card ids: two pip digits low-high (`11` … `66`) or `W` (听用, wild)",
        """bài trên tay bot dưới dạng mã lá: hai chữ số nút từ thấp đến cao (`11` … `66`) hoặc
        `W` (听用, lá đại)""",
    ),
    ("cards held per seat (`null` for D)", "số lá đang cầm của từng ghế (`null` với D)"),
    (
        """what the bot must answer: `kind` (`discard`, `call`, `diu`, `offer`), `options`
        (every legal reply, already in the reply shape) and `deadline` (unix time or `null`)""",
        """điều bot phải trả lời: `kind` (`discard`, `call`, `diu`, `offer`), `options` (mọi
        cách trả lời hợp lệ, đã ở đúng dạng trả lời) và `deadline` (thời điểm unix hoặc
        `null`)""",
    ),
    ("the prompted seat", "ghế đang được nhắc"),
    (
        """the card up for decision: `{card, source: "discard" | "stock", seat}`""",
        """lá đang mở chờ quyết định: `{card, source: "discard" | "stock", seat}`""",
    ),
    (
        """the claim poll on that card: `order` (seats asked), `bar` (rank a claim must beat),
        `answers` (`{seat, answer, stage, auto}` so far) and `claims` (`{seat, type}`)""",
        """lượt hỏi ăn lá đó: `order` (các ghế được hỏi), `bar` (hạng mà một lần ăn phải vượt),
        `answers` (`{seat, answer, stage, auto}` đến giờ) và `claims` (`{seat, type}`)""",
    ),
    (
        "exposed melds per seat: `{type, cards, from, source}`",
        "các bộ đã hạ của từng ghế: `{type, cards, from, source}`",
    ),
    (
        "each seat's discard pile (unclaimed discards)",
        "chồng bài đã đánh của từng ghế (các lá không ai ăn)",
    ),
    ("drawn cards nobody claimed", "các lá rút ra mà không ai ăn"),
    ("cards left in the stock", "số lá còn trong nọc"),
    ("the Chinese name of each card id", "tên tiếng Trung của từng mã lá"),
    (
        "`round` (one per card put up), `gameOver`, `players` (4), `rulesVersion`",
        "`round` (mỗi lá được mở là một vòng), `gameOver`, `players` (4), `rulesVersion`",
    ),
    (
        "table-session totals, when the table provides them",
        "tổng điểm của phiên bàn, khi bàn cung cấp",
    ),
    (
        "the table's options (timers, claim shapes, 丢 mode, deck…)",
        "các tùy chọn của bàn (hẹn giờ, kiểu bộ khi ăn, chế độ 丢, bộ bài…)",
    ),
    # diu-return
    (
        "Return one of `prompt.options` as it is, or build the same shape:",
        "Trả về nguyên một phần tử của `prompt.options`, hoặc tự dựng cùng dạng đó:",
    ),
    ("prompt", "lời nhắc"),
    ("reply", "trả lời"),
    (
        "discard a card (a `W` only when nothing else is held)",
        "đánh một lá (chỉ được đánh `W` khi không còn lá nào khác)",
    ),
    ("let the card go", "để lá đó đi qua"),
    (
        """claim it with hand cards: `chi` 吃 (14 points), `kuai` 筷 (W), `shui` 水 (W W),
        `hard_pair`, `hard_shui`, `hard_triple`""",
        """ăn lá đó bằng các lá trên tay: `chi` 吃 (14 điểm), `kuai` 筷 (W), `shui` 水 (W W),
        `hard_pair`, `hard_shui`, `hard_triple`""",
    ),
    (
        "丢: win with the card and two hand cards (ends the hand)",
        "丢: thắng bằng lá đó và hai lá trên tay (kết thúc tay bài)",
    ),
    ("take the claimed card, then discard", "lấy lá đã báo ăn, rồi đánh một lá"),
    (
        """A claim must outrank the poll's `bar` (`options` only lists claims that do), and a
        claim other than 丢 must leave a card to discard.""",
        """Một lần ăn phải cao hơn `bar` của lượt hỏi (`options` chỉ liệt kê những lần ăn như
        vậy), và một lần ăn không phải 丢 phải chừa lại một lá để đánh.""",
    ),
    # diu-errors
    (
        """`bad_bot_move` (not an object, an unknown `action` or claim `type`, `cards` not a
        list), `bad_card`, `not_in_hand`, `wild_discard`, `claim_not_allowed`,
        `claim_not_higher`, `invalid_claim`, `must_keep_card`, `diu_not_allowed`,
        `invalid_diu`, `diu_incomplete`, `illegal_action` (a reply that does not answer the
        prompt), `not_your_turn`, `game_over`.""",
        """`bad_bot_move` (không phải đối tượng, `action` hoặc `type` ăn không xác định,
        `cards` không phải danh sách), `bad_card`, `not_in_hand`, `wild_discard`,
        `claim_not_allowed`, `claim_not_higher`, `invalid_claim`, `must_keep_card`,
        `diu_not_allowed`, `invalid_diu`, `diu_incomplete`, `illegal_action` (câu trả lời
        không đáp đúng lời nhắc), `not_your_turn`, `game_over`.""",
    ),
    (
        """On any error the house policy acts and a strike is counted: pass a call or a
        re-poll, decline an offer, or discard the highest natural card.""",
        """Khi có lỗi, máy đánh thay và bị tính một lỗi: bỏ qua khi được hỏi ăn hoặc hỏi lại,
        từ chối lời mời, hoặc đánh lá tự nhiên cao nhất.""",
    ),
)

#: English panel text → Vietnamese.
VI: dict[str, str] = {_normal(en): _normal(vi) for en, vi in _PAIRS}
