// The Replay lab in the bot editor (docs/history.md "Replay lab"): the editor was opened on one
// move of your bot in a finished game (cfg.lab, recomputed on the server). Test Bot runs the
// editor's code on that exact state through the Test Bot worker path (POST /api/bots/test-run/
// with the move's reference: the server recomputes the state, the client never sends it) and
// shows the new answer beside the original. Texts come from templates/bots/_lab_i18n.html;
// everything from the server or the bot is inserted with textContent.
(function () {
  "use strict";

  const editor = window.botEditor;
  const panel = document.querySelector("[data-lab]");
  if (!editor || !panel || !editor.cfg.lab) return;
  const lab = editor.cfg.lab;
  const T = JSON.parse(document.getElementById("bot-lab-i18n").textContent);
  const $ = (id) => document.getElementById(id);
  const fmt = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));

  function json(value) {
    return value === null || value === undefined ? T.nothing : JSON.stringify(value);
  }

  function facts(box, rows) {
    box.replaceChildren();
    for (const [key, label, value] of rows) {
      const dt = document.createElement("dt");
      dt.textContent = label;
      const dd = document.createElement("dd");
      dd.textContent = value;
      dd.dataset.fact = key;
      box.append(dt, dd);
    }
  }

  function consoleText(lines) {
    return Array.isArray(lines) && lines.length ? lines.join("\n") : T.no_console;
  }

  // ------------------------------------------------------------------ the original move
  const original = lab.original;
  $("lab-state").textContent = JSON.stringify(original.game_state, null, 2);
  const originalRows = [
    ["returned", T.returned, json(original.returned)],
    ["move", T.move, original.strike ? fmt(T.auto_pass, { move: json(original.move) }) : json(original.move)],
    ["legal", T.legal, original.strike ? T.no : T.yes],
    ["time", T.time, typeof original.elapsed_ms === "number" ? fmt(T.ms, { n: original.elapsed_ms }) : "—"],
    ["strike", T.strike, original.strike || T.none],
  ];
  if (original.error_message) originalRows.push(["error", T.error, original.error_message]);
  facts($("lab-original-facts"), originalRows);
  $("lab-original-console").textContent = consoleText(original.console);

  // ------------------------------------------------------------------ a run on this move
  const POLL_MS = 500;
  const WAIT_MS = 180000;
  const verdict = $("lab-verdict");
  const runButton = $("lab-run");

  function showNew(result) {
    const answer = result.new;
    $("lab-new-empty").hidden = true;
    const rows = [
      ["returned", T.returned, answer.ok ? json(answer.value) : T.nothing],
      ["move", T.move, answer.legal ? answer.move_text || json(answer.action) : "—"],
      ["legal", T.legal, answer.legal ? T.yes : T.no],
      ["time", T.time, fmt(T.ms, { n: answer.elapsed_ms })],
    ];
    if (answer.error_code) {
      rows.push(["error", T.error, `${answer.error_code}${answer.error_message ? ": " + answer.error_message : ""}`]);
    }
    facts($("lab-new-facts"), rows);
    const box = $("lab-new-console");
    box.hidden = false;
    box.textContent = consoleText(answer.console);
    panel.dataset.changed = String(result.changed);
    panel.dataset.legal = String(answer.legal);
    verdict.textContent = result.changed
      ? `${T.changed}${result.same_action ? " " + T.same_action : ""}`
      : T.unchanged;
    verdict.dataset.kind = result.changed ? "changed" : "same";
  }

  async function run() {
    editor.showTab($("tab-lab"));
    runButton.disabled = true;
    editor.testButton.disabled = true;
    verdict.textContent = T.running;
    verdict.dataset.kind = "busy";
    delete panel.dataset.changed;
    try {
      let runState = await editor.api("POST", editor.cfg.api.testRun, {
        code: editor.getCode(),
        game: editor.cfg.bot.game,
        move: lab.ref,
      });
      const deadline = Date.now() + WAIT_MS;
      while (runState.status === "queued" || runState.status === "running") {
        if (Date.now() > deadline) throw new Error(T.too_slow);
        verdict.textContent = runState.status === "queued" ? T.waiting : T.running;
        await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
        runState = await editor.api("GET", runState.url);
      }
      if (runState.status !== "done" || !runState.lab) throw new Error(runState.error || "failed");
      showNew(runState.lab);
    } catch (err) {
      verdict.textContent = fmt(T.failed, { error: err.message });
      verdict.dataset.kind = "error";
    } finally {
      runButton.disabled = false;
      editor.testButton.disabled = false;
    }
  }

  runButton.addEventListener("click", run);
  $("lab-samples").addEventListener("click", () => editor.runTests());
  window.botLab = { run };
  editor.showTab($("tab-lab"));
})();
