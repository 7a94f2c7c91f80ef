// Bot editor (seed 002 §4.4): Monaco from our own static files, save / Test Bot through the
// REST API (/api/bots/), API reference, console and example bots. No network beyond this site;
// every text from the server or the bot is inserted with textContent (never innerHTML).
(function () {
  "use strict";

  const root = document.querySelector("[data-bot-editor]");
  if (!root) return;
  const cfg = JSON.parse(document.getElementById("bot-editor-config").textContent);
  const csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  // The editor's words in the page language (templates/bots/editor.html #bot-editor-i18n).
  const T = JSON.parse((document.getElementById("bot-editor-i18n") || {}).textContent || "{}");
  const t = (key, english, vars) => String(T[key] ?? english)
    .replace(/\{(\w+)\}/g, (m, k) => (vars && k in vars ? String(vars[k]) : m));

  const $ = (id) => document.getElementById(id);
  const nameInput = $("bot-name");
  const descInput = $("bot-description");
  const saveButton = $("save-bot");
  const testButton = $("test-bot");
  const saveStatus = $("save-status");
  const dirtyFlag = $("dirty-flag");
  const editorState = $("editor-state");
  const problems = $("problems");
  const results = $("test-results");
  const consoleBox = $("console");
  const testSummary = $("test-summary");
  const versionBox = $("bot-version");
  const validationBox = $("bot-validation");

  let savedCode = cfg.savedCode;
  let savedName = cfg.bot.name;
  let savedDescription = cfg.bot.description;
  let editor = null; // Monaco editor, or null while the textarea fallback is used
  let monacoApi = null;
  const fallback = $("code-fallback");
  let pollTimer = null;

  // ------------------------------------------------------------------ helpers

  function el(tag, props, children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [key, value] of Object.entries(props)) {
        if (key === "text") node.textContent = value;
        else if (key === "className") node.className = value;
        else node.setAttribute(key, value);
      }
    }
    (children || []).forEach((child) => child && node.appendChild(child));
    return node;
  }

  async function api(method, url, body) {
    const response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrf,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (!response.ok) {
      const error = new Error(describeError(data) || `HTTP ${response.status}`);
      error.status = response.status;
      error.data = data;
      throw error;
    }
    return data;
  }

  function describeError(data) {
    if (!data) return "";
    if (typeof data.detail === "string") return data.detail;
    return Object.entries(data)
      .map(([field, errors]) => `${field}: ${[].concat(errors).join(" ")}`)
      .join("; ");
  }

  function getCode() {
    return editor ? editor.getValue() : fallback.value;
  }

  function setCode(code) {
    if (editor) editor.setValue(code);
    else fallback.value = code;
    updateDirty();
  }

  function isDirty() {
    return (
      getCode() !== savedCode ||
      nameInput.value.trim() !== savedName ||
      descInput.value !== savedDescription
    );
  }

  function updateDirty() {
    dirtyFlag.hidden = !isDirty();
  }

  function setStatus(text, kind) {
    saveStatus.textContent = text;
    saveStatus.dataset.kind = kind || "";
  }

  // ------------------------------------------------------------------ tabs

  const tabs = Array.from(root.querySelectorAll("[role=tab]"));
  function showTab(tab) {
    tabs.forEach((t) => {
      const selected = t === tab;
      t.setAttribute("aria-selected", String(selected));
      $(t.getAttribute("aria-controls")).hidden = !selected;
    });
  }
  tabs.forEach((tab) => tab.addEventListener("click", () => showTab(tab)));

  // ------------------------------------------------------------------ status badge

  const STATUS_LABELS = {
    ready: t("ready", "Ready"),
    not_ready: t("not_ready", "Not ready"),
    pending: t("pending", "Validating…"),
  };

  function renderVersion(number, status, message) {
    versionBox.textContent = "";
    versionBox.appendChild(document.createTextNode(`v${number} `));
    const badge = el("span", {
      className: `badge bot-status badge-${status.replace("_", "-")}`,
      "data-status": status,
      text: STATUS_LABELS[status] || status,
    });
    versionBox.appendChild(badge);
    validationBox.textContent = message || "";
    // the same status beside this bot in the list, and "Evaluate vN" once it is ready: no
    // reload needed when validation finishes
    const listed = document.querySelector(".be-bot-list li.current .bot-status");
    if (listed) listed.replaceWith(badge.cloneNode(true));
    const foot = document.querySelector(".be-left-foot");
    let evaluate = foot && foot.querySelector(".evaluate-link");
    if (foot && status === "ready") {
      if (!evaluate) {
        evaluate = el("a", { className: "evaluate-link" });
        foot.children[0].after(evaluate);
      }
      evaluate.href = foot.dataset.evaluateUrl.replace(/\/versions\/0\//, `/versions/${number}/`);
      evaluate.textContent = `${t("evaluate", "Evaluate")} v${number}`;
    } else if (evaluate) {
      evaluate.remove();
    }
  }

  function pollStatus(number) {
    clearTimeout(pollTimer);
    let tries = 0;
    const tick = async () => {
      tries += 1;
      try {
        const data = await api("GET", `${cfg.api.versions}${number}/`);
        const message = (data.validation && data.validation.message) || "";
        renderVersion(number, data.status, message);
        if (data.status === "pending" && tries < 120) pollTimer = setTimeout(tick, 1500);
      } catch (err) {
        if (tries < 120) pollTimer = setTimeout(tick, 3000);
      }
    };
    pollTimer = setTimeout(tick, 1000);
  }

  // ------------------------------------------------------------------ problems (syntax)

  function showProblems(issues, source) {
    problems.textContent = "";
    issues.forEach((issue) => {
      problems.appendChild(
        el("li", {
          className: "problem",
          text: t("line_column", "Line {line}, column {column}: {message}",
            { line: issue.line, column: issue.column, message: issue.message }),
        })
      );
    });
    if (editor && monacoApi) {
      const markers = issues.map((issue) => ({
        severity: monacoApi.MarkerSeverity.Error,
        message: issue.message,
        startLineNumber: issue.line,
        startColumn: issue.column,
        endLineNumber: issue.line,
        endColumn: issue.column + 1,
        source: source || "server",
      }));
      monacoApi.editor.setModelMarkers(editor.getModel(), "server", markers);
    }
  }

  // ------------------------------------------------------------------ save

  async function save(event) {
    if (event) event.preventDefault();
    const code = getCode();
    const name = nameInput.value.trim();
    const description = descInput.value;
    if (!name) {
      setStatus(t("need_name", "Give your bot a name."), "error");
      nameInput.focus();
      return;
    }
    saveButton.disabled = true;
    setStatus(t("saving", "Saving…"), "busy");
    try {
      if (name !== savedName || description !== savedDescription) {
        await api("PATCH", cfg.api.bot, { name, description });
        savedName = name;
        savedDescription = description;
      }
      if (code !== savedCode || cfg.latest === null) {
        const version = await api("POST", cfg.api.versions, { code });
        savedCode = code;
        cfg.latest = { number: version.number, status: version.status };
        // the toolbar names the version now in the editor: the one just saved
        const shownVersion = $("shown-version");
        if (shownVersion && shownVersion.dataset.label) {
          shownVersion.textContent = shownVersion.dataset.label.replace("{n}", String(version.number));
        }
        showProblems(version.issues || []);
        renderVersion(
          version.number,
          version.status,
          version.status === "pending"
            ? t("validating", "Playing a validation game against copies of itself…") : ""
        );
        const note = version.issues && version.issues.length
          ? ` ${t("syntax_errors", "It has syntax errors.")}` : "";
        setStatus(t("saved_as", "Saved as v{n}.", { n: version.number }) + note, note ? "error" : "ok");
        pollStatus(version.number);
      } else {
        setStatus(t("saved", "Saved."), "ok");
      }
    } catch (err) {
      // code with a syntax error is refused (syntax_error): its errors marked in the editor
      if (err.data && err.data.code === "syntax_error") showProblems(err.data.issues || []);
      setStatus(t("not_saved", "Not saved: {error}", { error: err.message }), "error");
    } finally {
      saveButton.disabled = false;
      updateDirty();
    }
  }
  $("bot-details").addEventListener("submit", save);
  nameInput.addEventListener("input", updateDirty);
  descInput.addEventListener("input", updateDirty);

  // ------------------------------------------------------------------ Test Bot

  function renderResult(result) {
    const mark = result.ok ? "✓" : "✗";
    const outcome = result.ok
      ? result.move_text
      : `${result.error_code}${result.error_message ? ": " + result.error_message : ""}`;
    const summary = el("summary", {}, [
      el("span", { className: "mark", text: mark, "aria-label": result.ok ? t("passed", "passed") : t("failed", "failed") }),
      el("span", { text: ` ${t("test_n", "Test {n}: {title}", { n: result.index + 1, title: result.title })} — ` }),
      el("span", { className: result.ok ? "result-move" : "result-error", text: outcome }),
    ]);
    const body = el("div", { className: "result-body" }, [
      el("p", { className: "muted", text: result.description }),
      el("p", { text: t("table", "Table: {cards}", { cards: result.table }) }),
      el("p", { text: t("hand", "Hand: {cards}", { cards: result.hand.join(" ") }) }),
      el("p", {
        className: "muted",
        text: t("returned", "Returned: {move} · {ms} ms", {
          move: result.move === null ? t("nothing", "nothing") : JSON.stringify(result.move),
          ms: result.elapsed_ms,
        }),
      }),
    ]);
    if (result.console.length) {
      body.appendChild(el("pre", { className: "result-console", text: result.console.join("\n") }));
    }
    const details = el("details", {}, [summary, body]);
    if (!result.ok) details.open = true;
    return el(
      "li",
      { className: `test-result ${result.ok ? "ok" : "fail"}`, "data-ok": String(result.ok) },
      [details]
    );
  }

  // The run happens on a bot worker: POST answers at once with the run, which is polled
  // until it is done (or failed).
  const TEST_RUN_POLL_MS = 500;
  const TEST_RUN_WAIT_MS = 180000;

  async function testRunResult(first) {
    let run = first;
    const deadline = Date.now() + TEST_RUN_WAIT_MS;
    while (run.status === "queued" || run.status === "running") {
      if (Date.now() > deadline) throw new Error(t("no_result", "no result in time; try again later"));
      if (run.status === "queued") testSummary.textContent = t("waiting", "Waiting for a bot worker…");
      else testSummary.textContent = t("running", "Running {n} sample states…", { n: cfg.samples });
      await new Promise((resolve) => window.setTimeout(resolve, TEST_RUN_POLL_MS));
      run = await api("GET", run.url);
    }
    if (run.status !== "done") throw new Error(run.error || t("run_failed", "the test run failed"));
    return run;
  }

  async function runTests() {
    showTab($("tab-console"));
    testButton.disabled = true;
    results.textContent = "";
    consoleBox.textContent = "";
    testSummary.textContent = t("running", "Running {n} sample states…", { n: cfg.samples });
    try {
      const data = await testRunResult(
        await api("POST", cfg.api.testRun, { code: getCode(), game: cfg.bot.game })
      );
      data.results.forEach((result) => {
        results.appendChild(renderResult(result));
        result.console.forEach((line) => {
          consoleBox.appendChild(document.createTextNode(`[test ${result.index + 1}] ${line}\n`));
        });
        if (!result.ok) {
          consoleBox.appendChild(
            document.createTextNode(
              `[test ${result.index + 1}] ✗ ${result.error_code}: ${result.error_message || ""}\n`
            )
          );
        }
      });
      testSummary.textContent = t("n_passed", "{passed} of {total} passed",
        { passed: data.passed, total: data.total });
      testSummary.dataset.kind = data.passed === data.total ? "ok" : "error";
    } catch (err) {
      testSummary.textContent = t("test_failed", "Test failed to run: {error}", { error: err.message });
      testSummary.dataset.kind = "error";
    } finally {
      testButton.disabled = false;
    }
  }
  // Opened on a replay's move (cfg.lab): Test Bot runs the code on that move (static/js/bots/lab.js).
  testButton.addEventListener("click", () => (cfg.lab && window.botLab ? window.botLab.run() : runTests()));
  window.botEditor = { cfg, api, getCode, showTab, runTests, testButton };
  $("clear-console").addEventListener("click", () => {
    results.textContent = "";
    consoleBox.textContent = "";
    testSummary.textContent = "";
  });

  // ------------------------------------------------------------------ examples

  const examples = Object.fromEntries(cfg.examples.map((e) => [e.key, e.code]));
  examples.template = cfg.template;
  root.querySelectorAll("[data-example]").forEach((button) => {
    button.addEventListener("click", () => {
      const code = examples[button.dataset.example];
      if (getCode() !== savedCode && !window.confirm(t("replace", "Replace your unsaved code?"))) return;
      setCode(code);
      if (editor) editor.focus();
    });
  });

  // ------------------------------------------------------------------ delete, leave

  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
  window.addEventListener("beforeunload", (event) => {
    if (isDirty()) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      save();
    }
  });

  // ------------------------------------------------------------------ Monaco

  function useFallback(reason) {
    if (editor) return;
    root.querySelector("#monaco").hidden = true;
    fallback.hidden = false;
    fallback.value = fallback.value || cfg.code;
    fallback.addEventListener("input", updateDirty);
    editorState.textContent = t("plain_editor", "Plain editor ({reason})", { reason });
    editorState.dataset.state = "fallback";
  }

  function startMonaco() {
    const loaderUrl = cfg.static.loader;
    const base = loaderUrl.slice(0, loaderUrl.lastIndexOf("/"));
    if (typeof window.require !== "function" || !window.require.config) {
      useFallback(t("files_missing", "editor files missing"));
      return;
    }
    window.MonacoEnvironment = { getWorkerUrl: () => cfg.static.worker };
    window.require.config({ paths: { vs: base } });
    const timer = setTimeout(
      () => useFallback(t("too_slow", "the editor took too long to load")), 20000);
    window.require(
      ["vs/editor/editor.main"],
      async (monaco) => {
        clearTimeout(timer);
        if (!fallback.hidden) return; // the fallback took over already
        monacoApi = monaco;
        const js = monaco.languages.typescript.javascriptDefaults;
        js.setCompilerOptions({
          target: monaco.languages.typescript.ScriptTarget.ES2020,
          lib: ["es2020"],
          allowNonTsExtensions: true,
          allowJs: true, // JSDoc types (@param {GameState}) count only in JavaScript files
          checkJs: false,
          noLib: false,
        });
        js.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
        try {
          // the bot's game's typed gameState, where it has one (cfg.static.dts is null otherwise)
          const dts = cfg.static.dts && (await fetch(cfg.static.dts, { credentials: "same-origin" }));
          if (dts && dts.ok) js.addExtraLib(await dts.text(), `ts:${cfg.bot.game}/gamestate.d.ts`);
        } catch (err) {
          /* autocomplete of gameState is a nicety; the editor works without it */
        }
        const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
        // A .js file name makes the TypeScript worker read the code as JavaScript.
        const model = monaco.editor.createModel(
          cfg.code,
          "javascript",
          monaco.Uri.parse(`file:///bots/${cfg.bot.id}/bot.js`)
        );
        editor = monaco.editor.create(root.querySelector("#monaco"), {
          model,
          theme: dark ? "vs-dark" : "vs",
          automaticLayout: true,
          lineNumbers: "on",
          // Monaco dims the number after a final newline on Linux (1.75:1 on white): full colour
          renderFinalNewline: "on",
          minimap: { enabled: false },
          fontSize: 14,
          tabSize: 2,
          scrollBeyondLastLine: false,
          fixedOverflowWidgets: true,
        });
        editor.onDidChangeModelContent(() => {
          updateDirty();
          monaco.editor.setModelMarkers(editor.getModel(), "server", []);
        });
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => save());
        monaco.editor.onDidChangeMarkers(() => {
          const markers = monaco.editor.getModelMarkers({ resource: editor.getModel().uri });
          const errors = markers.filter((m) => m.severity === monaco.MarkerSeverity.Error);
          problems.textContent = "";
          errors.slice(0, 20).forEach((m) => {
            problems.appendChild(
              el("li", {
                className: "problem",
                text: t("line_column", "Line {line}, column {column}: {message}",
                  { line: m.startLineNumber, column: m.startColumn, message: m.message }),
              })
            );
          });
        });
        editorState.textContent = "JavaScript";
        editorState.dataset.state = "ready";
        root.dataset.monaco = "ready";
        updateDirty();
      },
      (err) => {
        clearTimeout(timer);
        useFallback(t("not_loaded", "the editor could not be loaded"));
        console.error(err);
      }
    );
  }

  if (cfg.latest) renderVersion(cfg.latest.number, cfg.latest.status, cfg.latest.message);
  if (cfg.latest && cfg.latest.status === "pending") pollStatus(cfg.latest.number);
  startMonaco();
})();
