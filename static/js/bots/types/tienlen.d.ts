// Types of the Tiến Lên bot API, for the editor's autocomplete (Monaco addExtraLib).
// The reference is docs/bot-api.md (generated from bots/reference/); a test checks that
// every gameState field documented there is declared here.

/** A card suit, lowest to highest: ♠ < ♣ < ♦ < ♥. */
type Suit = "♠" | "♣" | "♦" | "♥";
/** A card rank, lowest to highest: 3 … K, A, 2. */
type Rank = "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K" | "A" | "2";
/** A combination type. pairs_run = đôi thông (3+ consecutive pairs), four = tứ quý. */
type ComboType = "single" | "pair" | "triple" | "straight" | "pairs_run" | "four";

/** A card. Strength is `value`, then suit (♠ < ♣ < ♦ < ♥). */
interface Card {
  /** `3 4 5 6 7 8 9 10 J Q K A 2` */
  rank: Rank;
  /** `♠ ♣ ♦ ♥` (lowest to highest) */
  suit: Suit;
  /** 3 → 1 … K → 11, A → 12, 2 → 13 */
  value: number;
  /** rank + suit letter (S C D H), e.g. "10H": the engine's card id */
  id: string;
}

/** A legal play: one entry of `gameState.validMoves`. */
interface ValidMove {
  type: ComboType;
  /** Its cards, weakest first. Return them as they are to play this move. */
  cards: Card[];
}

/** The play to beat. */
interface LastPlay {
  /** Seat that made it. */
  player: number;
  /** Its cards, weakest first. */
  cards: Card[];
  type: ComboType;
  /** Ranks in a straight / pairs run (1 otherwise). */
  length: number;
  /** `value` of its strongest card: a same-type play needs a strongest card of at least this value (equal value needs a higher suit). */
  minRankToBeat: number;
  /** Its strongest card. */
  topCard: Card;
}

/** One entry of `roundPlays`: a play or a pass, in order. */
type RoundPlay =
  | { player: number; action: "play"; type: ComboType; cards: Card[] }
  | { player: number; action: "pass" };

interface Metadata {
  /** Round index in this game, from 0. */
  round: number;
  /** The seat that led the game's first round. */
  dealer: number;
  /** True for the game's first play (it must include `mustInclude`). */
  isFirstTurn: boolean;
  /** Always true when a bot is asked. */
  gameStarted: boolean;
  /** The game has ended (never true when a bot is asked). */
  gameOver: boolean;
  /** Seats at the table (2–4). */
  players: number;
  /** The engine's rules version, e.g. "tienlen-1". */
  rulesVersion: string;
}

/** The open chặt chain. */
interface Chain {
  debtor: number;
  payee: number;
  points: number;
}

interface Transfer {
  from: number;
  to: number;
  points: number;
  reason: string;
}

interface Scores {
  /** This game's points so far (chặt settled at round ends). */
  game: number[];
  /** Those settled transfers. */
  transfers: Transfer[];
  /** Table-session totals before this game, when the table provides them. */
  session: number[] | null;
}

interface Rules {
  players: number;
  /** The 3♠ opening rule is on for this game. */
  opening: boolean;
  playOnAfterWinner: boolean;
  hideHandCounts: boolean;
  turnSeconds: number;
  /** Your time per move, in seconds (5). */
  botSeconds: number;
}

/** What your bot sees on its turn. */
interface GameState {
  /** Your seat, `0..players-1`; turn order is seat+1 mod players. */
  myPosition: number;
  /** Your hand, weakest first. */
  myCards: Card[];
  /** Cards left per seat; opponents are `null` while the table hides hand counts. */
  playerCardCounts: (number | null)[];
  /** Every card played in the current round (vòng), in play order. */
  playedCards: Card[];
  /** The play to beat; `null` when you lead the round. */
  lastPlay: LastPlay | null;
  /** Whose turn it is (your own seat when you are asked). */
  currentTurn: number | null;
  /** Seats locked out of the current round because they passed. */
  passedPlayers: boolean[];
  metadata: Metadata;
  /** Every legal play (not the pass), sorted by type, then length, then strength. */
  validMoves: ValidMove[];
  /** False when you lead (a leader must play). */
  canPass: boolean;
  /** The card the opening play must contain (3♠, or the lowest dealt card with 2–3 players). */
  mustInclude: Card | null;
  /** Whether you may cut with 3 đôi thông / tứ quý this round (the round's leader may not). */
  hasVong: boolean;
  /** Who led the current round. */
  roundLeader: number;
  /** This round in order. */
  roundPlays: RoundPlay[];
  /** Every card played so far in this game. */
  cardsSeen: Card[];
  /** Seats that emptied their hand, in order. */
  finishedPlayers: number[];
  /** The open chặt chain, if any. */
  chain: Chain | null;
  scores: Scores;
  rules: Rules;
}

/** What getNextMove returns: play cards (objects or ids like "6S"), or pass. */
type Move =
  | { action: "play"; cards: (Card | Pick<Card, "rank" | "suit"> | string)[] }
  | { action: "pass" };

/** Captured output: shown in Test Bot, and to you (only) in live games and replays. */
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  debug(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  dir(...data: unknown[]): void;
  table(...data: unknown[]): void;
  trace(...data: unknown[]): void;
};
