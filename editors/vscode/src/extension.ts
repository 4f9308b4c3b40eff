// bleu-ls for VS Code: a thin client of the bleu-ls language server.
// Hints, diagnostics and code lenses come straight from the server through
// vscode-languageclient; this file adds the server lookup, the settings
// mapping, the corpus-score status item and the palette commands.

import * as cp from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
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
import { isBleuDocument } from "./documents";
import { hintsMiddleware } from "./hints";
import { diagnosticPullOptions } from "./pullOptions";

import packageJson from "../package.json";
import { HostEnv, resolveServerCommand, Resolution, startFailureMessage } from "./serverCommand";
import {
  ensureManagedServer,
  findPython,
  FixAction,
  failureMessage,
  layout,
  managedEnv,
  reusable,
  runProgram,
  sameVersion,
  Setup,
} from "./managed";
import {
  documentSelector,
  explicitSettings,
  SECTION,
  serverKeys,
  subSection,
  withoutClientKeys,
} from "./settings";
import { isRevealMessage, placeholderHtml, REPORT_COMMAND, withBridge } from "./reportView";
import { CorpusScoreResult, formatStatus, headlineScore } from "./status";

const CORPUS_SCORE = "bleuLs/corpusScore";
const KEYS = serverKeys(packageJson);
/** The version of bleu-ls this extension carries and expects (`bleu-ls --version`). */
const VERSION: string = packageJson.version;

let client: LanguageClient | undefined;
let resolution: Resolution | undefined;
let status: vscode.StatusBarItem;
let output: vscode.OutputChannel;
const firstScore = new Map<string, number>();
const lastResult = new Map<string, CorpusScoreResult | null>();
let pollTimer: NodeJS.Timeout | undefined;
let everRunning = false;
let extensionContext: vscode.ExtensionContext | undefined;
/** The fix offered with the last failure of the managed server's set-up. */
let setupAction: FixAction | undefined;

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
  return isBleuDocument(doc, () => vscode.languages.match(selector, doc) > 0);
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

/** The interpreter selected in the Python extension (ms-python.python), when it is installed. */
async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const ext = vscode.extensions?.getExtension?.("ms-python.python");
  if (!ext) {
    return undefined;
  }
  const within = <T>(p: PromiseLike<T> | T, ms: number): Promise<T | undefined> =>
    Promise.race([Promise.resolve(p), new Promise<undefined>((r) => setTimeout(() => r(undefined), ms))]);
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api: any = ext.isActive ? ext.exports : await within(ext.activate(), 15000);
    const scope = vscode.workspace.workspaceFolders?.[0]?.uri;
    const envs = api?.environments;
    if (typeof envs?.getActiveEnvironmentPath === "function") {
      const active = envs.getActiveEnvironmentPath(scope);
      const resolved = active && typeof envs.resolveEnvironment === "function" ? await within(envs.resolveEnvironment(active), 15000) : undefined;
      const exe: unknown = resolved?.executable?.uri?.fsPath ?? active?.path;
      if (typeof exe === "string" && exe) {
        return exe;
      }
    }
    const cmd: unknown = api?.settings?.getExecutionDetails?.(scope)?.execCommand;
    if (Array.isArray(cmd) && cmd.length === 1 && typeof cmd[0] === "string") {
      return cmd[0];
    }
  } catch (err) {
    output.appendLine(`The Python extension's interpreter is not known: ${err instanceof Error ? err.message : String(err)}`);
  }
  return undefined;
}

/**
 * The managed server: reuse the finished environment in the extension's
 * global storage at once, else build it (progress notification naming the
 * step; pip's log in the output channel).  force: build afresh.
 */
async function managedServer(force: boolean): Promise<Resolution> {
  const storage = extensionContext?.globalStorageUri?.fsPath;
  const extensionPath = extensionContext?.extensionPath;
  if (!storage || !extensionPath) {
    return { ok: false, message: "bleu-ls: VS Code gave the extension no storage folder for its server." };
  }
  let setup: Setup;
  if (!force && reusable(layout(storage, process.platform), VERSION)) {
    setup = { ok: true, python: layout(storage, process.platform).python, reused: true, version: VERSION };
  } else {
    const selected = await pythonExtensionInterpreter();
    output.appendLine(`Setting up the bleu-ls ${VERSION} server in ${storage}`);
    const started = Date.now();
    // Looking for Python takes a moment: the notification shows from the first long step on.
    output.appendLine("-- looking for Python 3.10 or newer");
    const python = await findPython({ host: hostEnv(), selectedPython: selected, log: (text) => output.append(text) });
    setup = !python.ok ? python : await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "bleu-ls setup", cancellable: false },
      async (progress) =>
        ensureManagedServer({
          storage,
          wheelDir: path.join(extensionPath, "bundled"),
          version: VERSION,
          host: hostEnv(),
          python,
          force,
          progress: (step) => {
            output.appendLine(`-- ${step}`);
            progress.report({ message: `${step}…` });
          },
          log: (text) => output.append(text),
        }),
    );
    if (setup.ok) {
      output.appendLine(`The server is set up (${((Date.now() - started) / 1000).toFixed(1)} s).`);
    }
  }
  if (!setup.ok) {
    const { message, action } = failureMessage(setup.failure, storage);
    setupAction = action;
    return { ok: false, message };
  }
  return {
    ok: true,
    command: setup.python,
    args: ["-m", "bleu_ls", "serve"],
    source: "managed",
    display: `${setup.python} -m bleu_ls serve`,
  };
}

/**
 * How to start the server: bleuLs.server.path, bleuLs.server.interpreter,
 * bleu-ls on PATH (when its version is the extension's), else the managed
 * server (unless bleuLs.server.manage is off).
 */
async function resolveServer(): Promise<Resolution> {
  setupAction = undefined;
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const found = resolveServerCommand(
    { path: cfg.get<string>("server.path"), interpreter: cfg.get<string>("server.interpreter") },
    hostEnv(),
  );
  if (!cfg.get<boolean>("server.manage", true)) {
    return found.ok || !found.notFound
      ? found
      : { ...found, message: `${found.message} (Or set \`bleuLs.server.manage\` to true: the extension then sets up its own server.)` };
  }
  if (found.ok && found.source === "PATH") {
    const answer = await runProgram(found.command, ["--version"], { timeoutMs: 30000 });
    if (sameVersion(answer, VERSION)) {
      return found;
    }
    const said = (answer.stdout + answer.stderr).trim().split(/\r?\n/).pop() || answer.error?.message || "nothing";
    output.appendLine(`${found.command} --version answers “${said}”, not bleu-ls ${VERSION}: using the extension's own server instead.`);
    const managed = await managedServer(false);
    if (!managed.ok) {
      // the one on PATH is better than none
      output.appendLine(`${managed.message}\nStarting ${found.command} from PATH after all.`);
      setupAction = undefined;
      return found;
    }
    return managed;
  }
  if (found.ok || !found.notFound) {
    return found;
  }
  return managedServer(false);
}

async function offerFix(message: string, action: FixAction | undefined): Promise<void> {
  if (!action) {
    return offerSettings(message.startsWith("bleu-ls") ? message : `bleu-ls: ${message}`);
  }
  const button = action === "python" ? "Get Python" : action === "reinstall" ? "Retry" : "Open Settings";
  const choice = await vscode.window.showErrorMessage(message, button, "Show Log");
  if (choice === "Show Log") {
    output.show(true);
  } else if (choice === "Get Python") {
    await vscode.env.openExternal(vscode.Uri.parse("https://www.python.org/downloads/"));
  } else if (choice === "Retry") {
    await vscode.commands.executeCommand("bleu-ls.reinstallServer");
  } else if (choice === "Open Settings") {
    await vscode.commands.executeCommand("workbench.action.openSettings", "bleuLs.server");
  }
}

function createClient(res: Resolution): LanguageClient | undefined {
  resolution = res;
  if (!resolution.ok) {
    output.appendLine(resolution.message);
    void offerFix(resolution.message, setupAction);
    return undefined;
  }
  output.appendLine(`Starting the server: ${resolution.display}`);
  const serverOptions: ServerOptions = {
    command: resolution.command,
    args: resolution.args,
    transport: TransportKind.stdio,
    options: {
      cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      ...(resolution.source === "managed" ? { env: managedEnv(process.env) } : {}),
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(vscode.workspace.getConfiguration(SECTION).get("pairs")),
    initializationOptions: settingsFor(),
    outputChannel: output,
    // diagnostics pulled on open and when the server asks, not per key (src/pullOptions.ts)
    diagnosticPullOptions,
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

/** Starts and stops run one after another (a set-up can take a minute). */
let lifecycle: Promise<void> = Promise.resolve();
function serially(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

function startClient(): Promise<void> {
  return serially(startNow);
}

async function startNow(): Promise<void> {
  if (client) {
    await stopNow();
  }
  client = createClient(await resolveServer());
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

function stopClient(): Promise<void> {
  return serially(stopNow);
}

/** Build the managed environment afresh (the palette command), then start the server again. */
async function reinstallServer(): Promise<void> {
  if (!vscode.workspace.getConfiguration(SECTION).get<boolean>("server.manage", true)) {
    void vscode.window.showWarningMessage(
      "bleu-ls: `bleuLs.server.manage` is off, so there is no managed server to reinstall (set it to true first).",
    );
    return;
  }
  await serially(async () => {
    await stopNow();
    const r = await managedServer(true);
    if (!r.ok) {
      output.appendLine(r.message);
      void offerFix(r.message, setupAction);
      return;
    }
    await startNow();
  });
}

async function stopNow(): Promise<void> {
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
  const score = headlineScore(result);
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

/**
 * bleuLs.addToGlossary: the selected text is the target term (asked for when nothing is
 * selected), the source term is asked for; the server appends the pair to the workspace's CSV
 * glossary (the only write into a glossary, on this explicit action) and says where.
 */
async function addToGlossary(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  let target = editor.document.getText(editor.selection).trim();
  if (!target) {
    target = (await vscode.window.showInputBox({ prompt: "bleu-ls: the target term to add to the glossary" }))?.trim() ?? "";
    if (!target) {
      return;
    }
  }
  const source = (await vscode.window.showInputBox({ prompt: `bleu-ls: the source term that \u201c${target}\u201d translates` }))?.trim();
  if (!source) {
    return;
  }
  const result = await serverCommand<{ message?: unknown }>("bleuLs.addToGlossary", [source, target]);
  if (result && typeof result.message === "string") {
    void vscode.window.showInformationMessage(`bleu-ls: ${result.message}`);
  }
}

/**
 * bleuLs.addToDictionary: the selected word (asked for when nothing is selected) is appended to
 * the workspace's word list .bleu-ls/words.txt, which the spelling check leaves out (the only
 * write into it, on this explicit action; the check's quick fix does the same for its word).
 */
async function addToDictionary(): Promise<void> {
  const editor = activeHypothesis();
  if (!editor || !client) {
    return;
  }
  let word = editor.document.getText(editor.selection).trim();
  if (!word) {
    word = (await vscode.window.showInputBox({ prompt: "bleu-ls: the word to add to the dictionary" }))?.trim() ?? "";
    if (!word) {
      return;
    }
  }
  const uri = client.code2ProtocolConverter.asUri(editor.document.uri);
  const result = await serverCommand<{ message?: unknown }>("bleuLs.addToDictionary", [uri, word]);
  if (result && typeof result.message === "string") {
    void vscode.window.showInformationMessage(`bleu-ls: ${result.message}`);
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
    e.affectsConfiguration(`${SECTION}.server.manage`) ||
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
  extensionContext = context;
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
    vscode.commands.registerCommand("bleu-ls.addToGlossary", addToGlossary),
    vscode.commands.registerCommand("bleu-ls.addToDictionary", addToDictionary),
    vscode.commands.registerCommand("bleu-ls.restartServer", () => startClient()),
    vscode.commands.registerCommand("bleu-ls.reinstallServer", reinstallServer),
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
  // Not awaited: a first start sets up the server (a minute or so), and
  // VS Code waits for activate() before it runs any of our commands.
  void startClient();
}

/** Resolves once the starts and stops asked for so far are done (for tests). */
export function settled(): Promise<void> {
  return lifecycle;
}

export async function deactivate(): Promise<void> {
  await stopNow();
}
