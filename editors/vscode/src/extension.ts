// bleu-ls for VS Code: a thin client of the bleu-ls language server.
// Hints, diagnostics and code lenses come straight from the server through
// vscode-languageclient; this file adds the server lookup, the settings
// mapping, the corpus-score status item and the palette commands.

import * as cp from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as vscode from "vscode";
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import { highlightCommands, tokensMiddleware } from "./highlights";
import { hintsMiddleware } from "./hints";

import packageJson from "../package.json";
import { HostEnv, resolveServerCommand, Resolution, startFailureMessage } from "./serverCommand";
import {
  documentSelector,
  explicitSettings,
  SECTION,
  serverKeys,
  subSection,
  withoutClientKeys,
} from "./settings";
import { isRevealMessage, placeholderHtml, REPORT_COMMAND, withBridge } from "./reportView";
import { CorpusScoreResult, formatStatus } from "./status";

const CORPUS_SCORE = "bleuLs/corpusScore";
const KEYS = serverKeys(packageJson);

let client: LanguageClient | undefined;
let resolution: Resolution | undefined;
let status: vscode.StatusBarItem;
let output: vscode.OutputChannel;
const firstScore = new Map<string, number>();
const lastResult = new Map<string, CorpusScoreResult | null>();
let pollTimer: NodeJS.Timeout | undefined;
let everRunning = false;

/** Why a server command fails: the last line its --help run prints to stderr. */
function diagnose(command: string, args: string[], cwd?: string): string | undefined {
  try {
    const probeArgs = [...args.filter((a) => a !== "serve"), "--help"];
    const r = cp.spawnSync(command, probeArgs, { encoding: "utf8", timeout: 15000, cwd });
    if (r.error) {
      return r.error.message;
    }
    if (r.status !== 0) {
      const lines = `${r.stderr ?? ""}`.split(/\r?\n/).filter((l) => l.trim());
      return lines.length ? lines[lines.length - 1].trim() : `exit code ${r.status}`;
    }
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return undefined;
}

function hostEnv(): HostEnv {
  return {
    platform: process.platform,
    env: process.env,
    home: os.homedir(),
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    isFile: (p) => {
      try {
        return fs.statSync(p).isFile();
      } catch {
        return false;
      }
    },
  };
}

/** What the user set under bleuLs (for one resource), as the server's camelCase dict. */
function settingsFor(scope?: vscode.Uri): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope ?? null);
  return explicitSettings(KEYS, (key) => cfg.inspect(key));
}

async function offerSettings(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, "Open Settings", "Show Output");
  if (choice === "Open Settings") {
    await vscode.commands.executeCommand("workbench.action.openSettings", "bleuLs.server");
  } else if (choice === "Show Output") {
    output.show(true);
  }
}

function isOurDocument(doc: vscode.TextDocument | undefined): boolean {
  if (!doc || !client) {
    return false;
  }
  const selector = client.clientOptions.documentSelector as vscode.DocumentSelector;
  return vscode.languages.match(selector, doc) > 0;
}

const restarts: number[] = [];
function restartBudget(): { action: CloseAction; message?: string } {
  const now = Date.now();
  restarts.push(now);
  while (restarts.length && now - restarts[0] > 3 * 60 * 1000) {
    restarts.shift();
  }
  if (restarts.length <= 4) {
    return { action: CloseAction.Restart };
  }
  return {
    action: CloseAction.DoNotRestart,
    message: "bleu-ls: the server stopped 5 times in 3 minutes and will not be restarted (see the bleu-ls output; bleu-ls: Restart Server).",
  };
}

function createClient(): LanguageClient | undefined {
  resolution = resolveServerCommand(
    {
      path: vscode.workspace.getConfiguration(SECTION).get<string>("server.path"),
      interpreter: vscode.workspace.getConfiguration(SECTION).get<string>("server.interpreter"),
    },
    hostEnv(),
  );
  if (!resolution.ok) {
    output.appendLine(resolution.message);
    void offerSettings(`bleu-ls: ${resolution.message}`);
    return undefined;
  }
  output.appendLine(`Starting the server: ${resolution.display}`);
  const serverOptions: ServerOptions = {
    command: resolution.command,
    args: resolution.args,
    transport: TransportKind.stdio,
    options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(vscode.workspace.getConfiguration(SECTION).get("pairs")),
    initializationOptions: settingsFor(),
    outputChannel: output,
    // A server that never got going is not restarted in a loop: the user
    // gets one message with the fix instead.
    initializationFailedHandler: () => false,
    errorHandler: {
      error: (_error, _message, count) =>
        count !== undefined && count <= 3 ? { action: ErrorAction.Continue } : { action: ErrorAction.Shutdown },
      closed: () => {
        if (!everRunning) {
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        return restartBudget();
      },
    },
    middleware: {
      // a large document: semantic tokens of the visible lines only
      ...tokensMiddleware,
      // hint labels glued to the line's last word: never alone on a wrapped row
      ...hintsMiddleware,
      workspace: {
        // Answer workspace/configuration for our section with the explicit
        // settings only (and never the client-only keys).
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) {
            return answers;
          }
          return params.items.map((item, i) => {
            const section = item.section ?? "";
            if (section === SECTION || section.startsWith(SECTION + ".")) {
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
              return withoutClientKeys(subSection(settingsFor(scope), section));
            }
            return answers[i];
          });
        },
      },
    },
  };
  const c = new LanguageClient("bleuLs", "bleu-ls", serverOptions, clientOptions);
  c.onNotification(CORPUS_SCORE, (params: CorpusScoreResult & { uri?: string; textDocument?: { uri: string } }) => {
    const uri = params.uri ?? params.textDocument?.uri;
    if (uri) {
      lastResult.set(uri, params);
      const active = vscode.window.activeTextEditor?.document;
      if (active && active.uri.toString() === vscode.Uri.parse(uri).toString()) {
        showStatus(active, params);
      }
    }
  });
  return c;
}

async function startClient(): Promise<void> {
  client = createClient();
  if (!client) {
    status.hide();
    return;
  }
  const res = resolution as Extract<Resolution, { ok: true }>;
  const c = client;
  // start() can stay pending when the server exits during start-up, so a
  // stop before "running" counts as a failure too.
  let stateSub: vscode.Disposable | undefined;
  const stoppedEarly = new Promise<never>((_resolve, reject) => {
    stateSub = c.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        stateSub?.dispose();
      } else if (e.newState === State.Stopped) {
        stateSub?.dispose();
        reject(new Error("the server exited during start-up"));
      }
    });
  });
  stoppedEarly.catch(() => undefined);
  try {
    await Promise.race([c.start(), stoppedEarly]);
    everRunning = true;
  } catch (err) {
    const reason = diagnose(res.command, res.args, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath) ?? err;
    const message = startFailureMessage(res.display, res.source, reason);
    output.appendLine(message);
    void offerSettings(message);
    return;
  }
  schedulePoll(0);
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch {
      /* already stopped */
    }
  }
}

function showStatus(doc: vscode.TextDocument, result: CorpusScoreResult | null): void {
  const key = doc.uri.toString();
  const score = result?.corpus?.score;
  if (typeof score === "number" && !firstScore.has(key)) {
    firstScore.set(key, score);
  }
  const view = formatStatus(result, firstScore.get(key));
  status.text = `$(graph) ${view.text}`;
  status.tooltip = view.tooltip;
  status.show();
}

async function pollActive(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const doc = editor?.document;
  if (!doc) {
    // No text editor has focus (the report beside it, a panel): the status
    // item stays as it was while an MT file is still visible.
    if (!vscode.window.visibleTextEditors.some((e) => isOurDocument(e.document))) {
      status.hide();
    }
    return;
  }
  if (!client || client.state !== State.Running || !isOurDocument(doc)) {
    if (!isOurDocument(doc)) {
      status.hide();
    }
    return;
  }
  try {
    const result = await client.sendRequest<CorpusScoreResult | null>(CORPUS_SCORE, {
      textDocument: { uri: client.code2ProtocolConverter.asUri(doc.uri) },
    });
    lastResult.set(doc.uri.toString(), result);
    scoresChanged(doc.uri.toString(), result);
    if (vscode.window.activeTextEditor?.document === doc) {
      showStatus(doc, result);
    }
  } catch (err) {
    output.appendLine(`${CORPUS_SCORE} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function schedulePoll(delay = 300): void {
  if (pollTimer) {
    clearTimeout(pollTimer);
  }
  pollTimer = setTimeout(() => {
    pollTimer = undefined;
    void pollActive();
  }, delay);
}

async function serverCommand<T>(command: string, args: unknown[]): Promise<T | undefined> {
  if (!client || client.state !== State.Running) {
    void vscode.window.showWarningMessage("bleu-ls: the server is not running (bleu-ls: Restart Server).");
    return undefined;
  }
  try {
    return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
  } catch (err) {
    void vscode.window.showErrorMessage(`bleu-ls: ${command} failed: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

function activeHypothesis(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isOurDocument(editor.document)) {
    void vscode.window.showInformationMessage("bleu-ls: open a hypothesis file first.");
    return undefined;
  }
  return editor;
}

/** One report webview per hypothesis document, refreshed when its scores change. */
interface ReportPanel {
  panel: vscode.WebviewPanel;
  doc: vscode.Uri;
  timer?: NodeJS.Timeout;
  lastKey?: string;
}
const reports = new Map<string, ReportPanel>();
/** Refresh a report at most this often while the user types. */
const REPORT_DEBOUNCE_MS = 1000;

async function renderReport(r: ReportPanel): Promise<void> {
  if (!client || client.state !== State.Running) {
    r.panel.webview.html = placeholderHtml("The bleu-ls server is not running (bleu-ls: Restart Server).");
    return;
  }
  let html: unknown;
  try {
    html = await client.sendRequest(ExecuteCommandRequest.type, {
      command: REPORT_COMMAND,
      arguments: [client.code2ProtocolConverter.asUri(r.doc)],
    });
  } catch (err) {
    html = undefined;
    output.appendLine(`${REPORT_COMMAND} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  r.panel.webview.html =
    typeof html === "string" && html
      ? withBridge(html)
      : placeholderHtml("No report for this file: it is not paired with a reference yet (bleu-ls: Pair With Reference...).");
}

async function revealLine(doc: vscode.Uri, line: number): Promise<void> {
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
  const p = new vscode.Position(Math.min(line - 1, editor.document.lineCount - 1), 0);
  editor.selection = new vscode.Selection(p, p);
  editor.revealRange(new vscode.Range(p, p), vscode.TextEditorRevealType.InCenter);
}

/** The scores of a document changed (status poll): refresh its report, debounced. */
function scoresChanged(uri: string, result: CorpusScoreResult | null): void {
  const r = reports.get(uri);
  if (!r) {
    return;
  }
  const key = JSON.stringify([result?.corpus?.score ?? null, result?.lines ?? null, result?.flagged ?? null, result?.problems ?? null]);
  if (key === r.lastKey) {
    return;
  }
  r.lastKey = key;
  if (r.timer) {
    clearTimeout(r.timer);
  }
  r.timer = setTimeout(() => {
    r.timer = undefined;
    void renderReport(r);
  }, REPORT_DEBOUNCE_MS);
}

async function showReport(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  const doc = editor.document.uri;
  const key = doc.toString();
  const open = reports.get(key);
  if (open) {
    open.panel.reveal(vscode.ViewColumn.Beside);
    await renderReport(open);
    return;
  }
  const name = doc.path.split("/").pop() ?? "hypothesis";
  const panel = vscode.window.createWebviewPanel("bleuLs.report", `bleu-ls report: ${name}`, vscode.ViewColumn.Beside, {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [],
  });
  const r: ReportPanel = { panel, doc, lastKey: JSON.stringify(lastResult.get(key) ?? null) };
  reports.set(key, r);
  panel.onDidDispose(() => {
    if (r.timer) {
      clearTimeout(r.timer);
    }
    reports.delete(key);
  });
  panel.webview.onDidReceiveMessage((m: unknown) => {
    if (isRevealMessage(m)) {
      void revealLine(doc, m.line);
    }
  });
  await renderReport(r);
}

/** The status item's menu: what a click on the corpus score offers. */
async function statusMenu(): Promise<void> {
  const items: (vscode.QuickPickItem & { command: string })[] = [
    { label: "$(graph) Show Report", description: "scores, charts and weakest lines of this file", command: "bleu-ls.showReport" },
    { label: "$(arrow-down) Next Flagged Line", command: "bleu-ls.nextFlagged" },
    { label: "$(arrow-up) Previous Flagged Line", command: "bleu-ls.previousFlagged" },
    { label: "$(link) Pair With Reference...", command: "bleu-ls.pairWith" },
    { label: "$(diff) Compare With Another System...", command: "bleu-ls.compareWith" },
    { label: "$(eye) Toggle Score Hints", command: "bleu-ls.toggleHints" },
    { label: "$(save) Export Scores", command: "bleu-ls.exportScores" },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: "bleu-ls", placeHolder: "What to do with this file's scores" });
  if (picked) {
    await vscode.commands.executeCommand(picked.command);
  }
}

async function pairWith(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    canSelectFolders: false,
    defaultUri: vscode.Uri.joinPath(editor.document.uri, ".."),
    openLabel: "Pair as reference",
    title: "Reference translation(s) for this hypothesis",
  });
  if (!picked || picked.length === 0) {
    return;
  }
  const c = client;
  await serverCommand("bleuLs.pairWith", [
    c.code2ProtocolConverter.asUri(editor.document.uri),
    picked.map((u) => c.code2ProtocolConverter.asUri(u)),
  ]);
  schedulePoll(0);
}

async function compareWith(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    canSelectFolders: false,
    defaultUri: vscode.Uri.joinPath(editor.document.uri, ".."),
    openLabel: "Compare with this system",
    title: "Another system's output for the same source (line-aligned)",
  });
  if (!picked || picked.length === 0) {
    return;
  }
  const c = client;
  const r = await serverCommand<{ compareWith?: string | null }>("bleuLs.compareWith", [
    c.code2ProtocolConverter.asUri(editor.document.uri),
    c.code2ProtocolConverter.asUri(picked[0]),
  ]);
  if (r && r.compareWith) {
    void vscode.window.setStatusBarMessage(`bleu-ls: comparing with ${picked[0].path.split("/").pop()}`, 3000);
  }
  schedulePoll(0);
}

async function stopComparing(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  await serverCommand("bleuLs.compareWith", [client.code2ProtocolConverter.asUri(editor.document.uri), null]);
  schedulePoll(0);
}

async function nextFlagged(direction: "next" | "previous"): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  const c = client;
  const pos = await serverCommand<{ line: number; character: number } | null>("bleuLs.nextFlagged", [
    c.code2ProtocolConverter.asUri(editor.document.uri),
    c.code2ProtocolConverter.asPosition(editor.selection.active),
    direction,
  ]);
  if (!pos || typeof pos.line !== "number") {
    void vscode.window.showInformationMessage(`bleu-ls: no flagged line ${direction === "next" ? "after" : "before"} this one.`);
    return;
  }
  const p = c.protocol2CodeConverter.asPosition(pos);
  editor.selection = new vscode.Selection(p, p);
  editor.revealRange(new vscode.Range(p, p), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** bleuLs.setDraft / bleuLs.forgetDraft on the active hypothesis; the server's answer as a message. */
async function draftCommand(command: string): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  const result = await serverCommand<unknown>(command, [client.code2ProtocolConverter.asUri(editor.document.uri)]);
  if (typeof result === "string") {
    void vscode.window.showInformationMessage(`bleu-ls: ${result}`);
  }
}

async function exportScores(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  const result = await serverCommand<unknown>("bleuLs.exportScores", [client.code2ProtocolConverter.asUri(editor.document.uri)]);
  if (result === undefined || result === null) {
    return;
  }
  let where: string | undefined;
  if (typeof result === "string") {
    where = result;
  } else if (typeof result === "object") {
    const r = result as Record<string, unknown>;
    where = (r.path ?? r.uri) as string | undefined;
  }
  if (where && /^(file:|\/|[A-Za-z]:\\)/.test(where)) {
    const uri = where.startsWith("file:") ? vscode.Uri.parse(where) : vscode.Uri.file(where);
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  } else {
    const content = typeof result === "string" ? result : JSON.stringify(result, null, 2);
    const doc = await vscode.workspace.openTextDocument({ content });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside });
  }
}

async function toggleHints(): Promise<void> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const now = cfg.get<boolean>("hints.enabled", true);
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await cfg.update("hints.enabled", !now, target);
  void vscode.window.setStatusBarMessage(`bleu-ls: score hints ${now ? "off" : "on"}`, 2500);
}

async function onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
  if (!e.affectsConfiguration(SECTION)) {
    return;
  }
  if (
    e.affectsConfiguration(`${SECTION}.server.path`) ||
    e.affectsConfiguration(`${SECTION}.server.interpreter`) ||
    e.affectsConfiguration(`${SECTION}.pairs`)
  ) {
    output.appendLine("Server settings or pairing rules changed: restarting the server.");
    await stopClient();
    await startClient();
    return;
  }
  if (client && client.state === State.Running) {
    await client.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { [SECTION]: settingsFor() },
    });
    schedulePoll(200);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("bleu-ls");
  status = vscode.window.createStatusBarItem("bleuLs.corpusScore", vscode.StatusBarAlignment.Right, 100);
  status.name = "bleu-ls corpus score";
  status.command = "bleu-ls.statusMenu";
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand("bleu-ls.showReport", showReport),
    vscode.commands.registerCommand("bleu-ls.statusMenu", statusMenu),
    vscode.commands.registerCommand("bleu-ls.pairWith", pairWith),
    vscode.commands.registerCommand("bleu-ls.compareWith", compareWith),
    vscode.commands.registerCommand("bleu-ls.stopComparing", stopComparing),
    vscode.commands.registerCommand("bleu-ls.nextFlagged", () => nextFlagged("next")),
    vscode.commands.registerCommand("bleu-ls.previousFlagged", () => nextFlagged("previous")),
    vscode.commands.registerCommand("bleu-ls.toggleHints", toggleHints),
    vscode.commands.registerCommand("bleu-ls.exportScores", exportScores),
    ...highlightCommands(),
    vscode.commands.registerCommand("bleu-ls.setDraft", () => draftCommand("bleuLs.setDraft")),
    vscode.commands.registerCommand("bleu-ls.forgetDraft", () => draftCommand("bleuLs.forgetDraft")),
    vscode.commands.registerCommand("bleu-ls.restartServer", async () => {
      await stopClient();
      await startClient();
    }),
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
    vscode.window.onDidChangeActiveTextEditor(() => schedulePoll(0)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document && isOurDocument(e.document)) {
        schedulePoll();
      }
    }),
    vscode.workspace.onDidSaveTextDocument(() => schedulePoll()),
    // Findings worked out in the background (adequacy) arrive as new
    // diagnostics without an edit: the tooltip's counts follow them.
    vscode.languages.onDidChangeDiagnostics((e) => {
      const doc = vscode.window.activeTextEditor?.document;
      if (doc && isOurDocument(doc) && e.uris.some((u) => u.toString() === doc.uri.toString())) {
        schedulePoll();
      }
    }),
    { dispose: () => pollTimer && clearTimeout(pollTimer) },
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
