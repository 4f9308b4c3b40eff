// The report of the open pair in a webview: the server renders the same
// self-contained HTML as `bleu-ls report`; this file adds the bridge that
// turns a click on a line of the report into a jump in the editor, and keeps
// the scroll position when the report is refreshed.  Pure logic (no vscode
// import), so it is unit-tested in node.

/** The server command that renders the report of an open hypothesis. */
export const REPORT_COMMAND = "bleuLs.reportHtml";

/** A message from the webview: jump to a 1-based line of the hypothesis. */
export interface RevealMessage {
  type: "reveal";
  line: number;
}

export function isRevealMessage(m: unknown): m is RevealMessage {
  if (!m || typeof m !== "object") {
    return false;
  }
  const r = m as Record<string, unknown>;
  return r.type === "reveal" && typeof r.line === "number" && Number.isInteger(r.line) && r.line >= 1;
}

/**
 * The script added to the report: elements carrying `data-line` (the report
 * marks every line it shows with its 1-based line number) become links to
 * that line, and the scroll position survives a refresh.
 */
export function bridgeScript(): string {
  return `
(function () {
  const vscode = acquireVsCodeApi();
  const state = vscode.getState() || {};
  window.addEventListener("load", function () {
    if (typeof state.scrollY === "number") { window.scrollTo(0, state.scrollY); }
  });
  let pending;
  window.addEventListener("scroll", function () {
    clearTimeout(pending);
    pending = setTimeout(function () { vscode.setState({ scrollY: window.scrollY }); }, 100);
  });
  document.addEventListener("click", function (e) {
    const el = e.target && e.target.closest ? e.target.closest("[data-line]") : null;
    if (!el) { return; }
    const line = Number(el.getAttribute("data-line"));
    if (Number.isInteger(line) && line >= 1) {
      e.preventDefault();
      vscode.postMessage({ type: "reveal", line: line });
    }
  });
  const style = document.createElement("style");
  style.textContent = "[data-line] { cursor: pointer; }";
  document.head.appendChild(style);
})();`;
}

/** The report's HTML with the bridge script added before `</body>` (or at the end). */
export function withBridge(html: string): string {
  const tag = `<script>${bridgeScript()}</script>`;
  const at = html.lastIndexOf("</body>");
  return at >= 0 ? html.slice(0, at) + tag + html.slice(at) : html + tag;
}

/** What the panel shows when the server has no report (file not paired, server down). */
export function placeholderHtml(message: string): string {
  const escaped = message.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
  return `<!DOCTYPE html><html><body style="font-family: sans-serif; padding: 1em"><p>${escaped}</p></body></html>`;
}
