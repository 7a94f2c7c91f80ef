// Compare page: a read-only Monaco diff of two versions' code (falls back to two <pre> blocks).
(function () {
  "use strict";
  const host = document.querySelector("[data-diff]");
  const script = document.currentScript;
  if (!host || !script) return;
  const diff = JSON.parse(document.getElementById("bot-diff").textContent);

  function fallback() {
    host.classList.remove("diff-view");
    host.className = "grid-2";
    host.textContent = "";
    [diff.left, diff.right].forEach((code) => {
      const pre = document.createElement("pre");
      pre.className = "code-view";
      pre.textContent = code;
      host.appendChild(pre);
    });
  }

  if (typeof window.require !== "function" || !window.require.config) {
    fallback();
    return;
  }
  const loader = script.dataset.loader;
  window.MonacoEnvironment = { getWorkerUrl: () => script.dataset.worker };
  window.require.config({ paths: { vs: loader.slice(0, loader.lastIndexOf("/")) } });
  window.require(
    ["vs/editor/editor.main"],
    (monaco) => {
      const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
      const editor = monaco.editor.createDiffEditor(host, {
        readOnly: true,
        automaticLayout: true,
        renderSideBySide: true,
        minimap: { enabled: false },
        renderFinalNewline: "on", // not Monaco's Linux default "dimmed" (1.75:1 on white)
        theme: dark ? "vs-dark" : "vs",
      });
      editor.setModel({
        original: monaco.editor.createModel(diff.left, "javascript"),
        modified: monaco.editor.createModel(diff.right, "javascript"),
      });
      host.dataset.monaco = "ready";
    },
    fallback
  );
})();
