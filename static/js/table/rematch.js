// Rematch after a session (docs/protocol.md "Rematch"): the session panel's Rematch button, and
// while an offer is open "X offers a rematch", who accepted, declined or has yet to answer, the
// countdown to its deadline and, for the people it asks, Accept / Decline. Spectators see the
// offer without buttons. Bots and house AIs accept by themselves and are not listed.
import { el, fmt, timerEl } from "./dom.js";

const NO_REMATCH_MODES = ["tournament", "arena"];

/** Whether the table offers rematches at all (tournament and arena tables have their own flow). */
export function rematchAllowed(table) {
  return !!table && !NO_REMATCH_MODES.includes(table.mode || (table.options || {}).mode);
}

/**
 * The rematch block of the session panel.
 * ctx: { offer, you (seat or null), table, name(seat), send(frame), seconds (the offer's length) }
 */
export function renderRematch(T, ctx) {
  const box = el("section", { class: "result-block rematch", id: "rematch", "aria-live": "polite" });
  const { offer, you } = ctx;
  if (!offer) {
    if (you === null || !rematchAllowed(ctx.table)) return null;
    box.append(el("p", { class: "muted" }, T.rematch_hint),
      el("button", { class: "button", type: "button", id: "btn-rematch",
        onclick: (e) => { e.target.disabled = true; ctx.send({ type: "rematch" }); } }, T.rematch));
    return box;
  }
  const answers = offer.answers || {};
  const answer = (seat) => answers[String(seat)];
  box.append(el("p", { class: "rematch-title", id: "rematch-title" },
    offer.by === you ? T.rematch_you_offered : fmt(T.rematch_offered_by, { name: ctx.name(offer.by) })));
  const names = (pick) => offer.people.filter(pick).map((s) => (s === you ? T.you_cap : ctx.name(s))).join(", ");
  const accepted = names((s) => answer(s) === true);
  const declined = names((s) => answer(s) === false);
  const waiting = names((s) => answer(s) === undefined);
  const list = el("ul", { class: "rematch-answers" });
  if (accepted) list.append(el("li", { dataset: { answer: "accepted" } }, fmt(T.rematch_accepted, { names: accepted })));
  if (declined) list.append(el("li", { dataset: { answer: "declined" } }, fmt(T.rematch_declined, { names: declined })));
  if (waiting) list.append(el("li", { dataset: { answer: "waiting" } }, fmt(T.rematch_waiting, { names: waiting })));
  box.append(list, el("p", { class: "muted small" }, T.rematch_rule), timerEl(offer.deadline, ctx.seconds),
    // "N s left to answer", kept up to date by table.js's tickTimers
    el("p", { class: "muted small rematch-left", dataset: { rematchDeadline: offer.deadline } }));
  if (you !== null && offer.people.includes(you)) {
    const mine = answer(you);
    const button = (accept, id, label) => el("button", {
      class: accept ? "button" : "button button-ghost", type: "button", id,
      "aria-pressed": String(mine === accept), disabled: mine === accept,
      onclick: () => ctx.send({ type: "rematch_answer", accept }) }, label);
    box.append(el("div", { class: "result-actions rematch-actions" },
      button(true, "btn-rematch-accept", T.rematch_accept),
      button(false, "btn-rematch-decline", T.rematch_decline)));
  }
  return box;
}
