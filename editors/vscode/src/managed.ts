// The managed server: when no bleu-ls is configured or on PATH, the
// extension builds a virtual environment of its own in its global storage,
// installs the bleu-ls wheel the .vsix carries into it (its dependencies from
// the package index, with pip's own configuration and proxy settings), and
// starts the server from there.  No `vscode` import: the extension passes in
// how to run programs and report progress, so that all of this runs in plain
// Node under the unit tests.

import * as cp from "child_process";
import * as fs from "fs";
import * as path from "path";

import { findOnPath, HostEnv } from "./serverCommand";

export const MIN_PYTHON: [number, number] = [3, 10];
export const REINSTALL_COMMAND = "bleu-ls: Reinstall the Managed Server";
/** The file in a finished environment saying which bleu-ls it holds. */
export const MARKER = "bleu-ls-managed.json";
/** Roughly what an environment takes on disk (numpy, sacrebleu, the language identifier...). */
const SIZE_HINT = "about 250 MB";

// -- running programs -------------------------------------------------------

export interface RunResult {
  /** Exit code; null when the program could not be started or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started (ENOENT, EACCES...). */
  error?: NodeJS.ErrnoException;
}

export type Runner = (
  command: string,
  args: string[],
  options?: { timeoutMs?: number; onOutput?: (text: string) => void; env?: NodeJS.ProcessEnv },
) => Promise<RunResult>;

/**
 * The environment for the managed Python: the user's, pip's configuration
 * and proxy included, without what would make that Python load other code
 * (PYTHONPATH, PYTHONHOME: a checkout or another Python's library) or make
 * pip install outside the environment (PIP_USER).
 */
export function managedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (!/^(PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PYTHONUSERBASE|PYTHONNOUSERSITE|PIP_USER|PIP_TARGET|PIP_PREFIX)$/i.test(k)) {
      out[k] = v;
    }
  }
  return out;
}

/** Run a program to its end, collecting its output (and streaming it when asked). */
export const runProgram: Runner = (command, args, options = {}) =>
  new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const done = (r: RunResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    let child: cp.ChildProcess;
    try {
      child = cp.spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true, env: options.env });
    } catch (err) {
      done({ code: null, stdout, stderr, error: err as NodeJS.ErrnoException });
      return;
    }
    const timer = options.timeoutMs
      ? setTimeout(() => {
          stderr += `\n(stopped after ${Math.round(options.timeoutMs! / 1000)} s)\n`;
          child.kill();
        }, options.timeoutMs)
      : undefined;
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      options.onOutput?.(d);
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      options.onOutput?.(d);
    });
    child.on("error", (err) => {
      if (timer) clearTimeout(timer);
      done({ code: null, stdout, stderr, error: err });
    });
    child.on("close", (code) => {
      if (timer) clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });

// -- versions ---------------------------------------------------------------

/** "bleu-ls 0.1.0" (what `bleu-ls --version` prints) -> "0.1.0". */
export function parseServerVersion(output: string): string | undefined {
  const m = /^\s*bleu-ls\s+v?([0-9][^\s]*)\s*$/m.exec(output);
  return m ? m[1] : undefined;
}

/** The version handshake: does this `bleu-ls --version` run report the extension's own version? */
export function sameVersion(run: RunResult, expected: string): boolean {
  return run.code === 0 && parseServerVersion(run.stdout) === expected;
}

// -- finding a Python -------------------------------------------------------

/** What the probe script prints about an interpreter. */
export interface PythonInfo {
  version: [number, number, number];
  executable: string;
  venv: boolean;
  ensurepip: boolean;
}

export const PROBE_SCRIPT =
  "import json, sys, importlib.util as u; print(json.dumps({'version': list(sys.version_info[:3]), " +
  "'executable': sys.executable, 'venv': u.find_spec('venv') is not None, " +
  "'ensurepip': u.find_spec('ensurepip') is not None}))";

export function parseProbe(stdout: string): PythonInfo | undefined {
  for (const line of stdout.split(/\r?\n/).reverse()) {
    try {
      const d = JSON.parse(line) as Partial<PythonInfo>;
      if (Array.isArray(d.version) && d.version.length === 3 && typeof d.executable === "string") {
        return {
          version: d.version as [number, number, number],
          executable: d.executable,
          venv: Boolean(d.venv),
          ensurepip: Boolean(d.ensurepip),
        };
      }
    } catch {
      /* not the probe's line */
    }
  }
  return undefined;
}

export const versionText = (v: number[]): string => v.join(".");
export const recentEnough = (v: number[]): boolean =>
  v[0] > MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] >= MIN_PYTHON[1]);

export interface PythonCandidate {
  command: string;
  args: string[];
  /** How the user would name it: "python3 (/usr/bin/python3)". */
  label: string;
}

/**
 * Where to look for a Python, in order: the interpreter selected in the
 * Python extension (when there is one), then python3, python and, on
 * Windows, the `py -3` launcher from PATH.
 */
export function pythonCandidates(host: HostEnv, selected?: string): PythonCandidate[] {
  const out: PythonCandidate[] = [];
  const seen = new Set<string>();
  const add = (command: string, args: string[], label: string) => {
    const key = [command, ...args].join(" ");
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ command, args, label });
    }
  };
  if (selected && selected.trim()) {
    add(selected.trim(), [], `the Python extension's interpreter (${selected.trim()})`);
  }
  const names = host.platform === "win32" ? ["python", "python3"] : ["python3", "python"];
  for (const name of names) {
    const found = findRealOnPath(name, host);
    if (found) {
      add(found, [], `${name} (${found})`);
    }
  }
  if (host.platform === "win32") {
    const py = findOnPath("py", host);
    if (py) {
      add(py, ["-3"], `py -3 (${py})`);
    }
  }
  return out;
}

/**
 * macOS's /usr/bin/python3 without the Command Line Tools: running it opens
 * an "install the developer tools" dialog instead of Python.
 */
function isXcodeStub(exe: string, host: HostEnv): boolean {
  return (
    exe === "/usr/bin/python3" &&
    !host.isFile("/Library/Developer/CommandLineTools/usr/bin/python3") &&
    !host.isFile("/Applications/Xcode.app/Contents/Developer/usr/bin/python3")
  );
}

/**
 * The first `name` on PATH that is a Python: not the Microsoft Store's alias
 * (which opens the Store) nor macOS's developer-tools stub.
 */
function findRealOnPath(name: string, host: HostEnv): string | undefined {
  const sep = host.platform === "win32" ? ";" : ":";
  for (const dir of (host.env.PATH ?? host.env.Path ?? "").split(sep)) {
    const found = dir ? findOnPath(name, { ...host, env: { ...host.env, PATH: dir, Path: dir } }) : undefined;
    if (found && !/[\\/]WindowsApps[\\/]/i.test(found) && !(host.platform === "darwin" && isXcodeStub(found, host))) {
      return found;
    }
  }
  return undefined;
}

export interface Probed {
  candidate: PythonCandidate;
  info?: PythonInfo;
}

export type Choice =
  | { ok: true; python: PythonCandidate; info: PythonInfo }
  | { ok: false; failure: Failure };

/**
 * The first recent-enough Python that can make a virtual environment; else
 * why none will do (no Python at all, only old ones, or no venv module).
 */
export function choosePython(probed: Probed[], platform: string): Choice {
  const working = probed.filter((p) => p.info);
  const recent = working.filter((p) => recentEnough(p.info!.version));
  const usable = recent.find((p) => p.info!.venv && p.info!.ensurepip);
  if (usable) {
    return { ok: true, python: usable.candidate, info: usable.info! };
  }
  if (recent.length) {
    const p = recent[0];
    return { ok: false, failure: { kind: "no-venv", python: p.info!, platform } };
  }
  if (working.length) {
    const newest = [...working].sort((a, b) => cmpVersion(b.info!.version, a.info!.version))[0];
    return { ok: false, failure: { kind: "too-old", python: newest.info!, platform } };
  }
  return { ok: false, failure: { kind: "no-python", looked: probed.map((p) => p.candidate.label), platform } };
}

function cmpVersion(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

// -- what went wrong --------------------------------------------------------

export type Failure =
  | { kind: "no-python"; looked: string[]; platform: string }
  | { kind: "too-old"; python: PythonInfo; platform: string }
  | { kind: "no-venv"; python: PythonInfo; platform: string }
  | { kind: "disk"; where: string }
  | { kind: "network"; detail: string }
  | { kind: "index"; detail: string }
  | { kind: "no-wheel"; where: string }
  | { kind: "other"; step: string; detail: string };

const DISK = /ENOSPC|No space left on device|\[Errno 28\]|Disk quota exceeded|\[Errno 122\]/i;
const NETWORK =
  /Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|nodename nor servname|getaddrinfo failed|Network is unreachable|Connection refused|ConnectTimeoutError|Read timed out|timed out|ProxyError|Cannot connect to proxy|SSLError|CERTIFICATE_VERIFY_FAILED|Could not fetch URL|NewConnectionError|RemoteDisconnected|Connection reset/i;
const INDEX =
  /No matching distribution found|Could not find a version that satisfies|HTTP error \d{3}|\b(?:401|403|404|407|5\d\d) Client Error|\b(?:401|403|404|407|5\d\d) Server Error|Forbidden|Unauthorized|HTTPError/i;
const NO_VENV = /ensurepip is not available|No module named venv|No module named ensurepip|python3(?:\.\d+)?-venv/i;

/** The most telling line of a program's output (pip's ERROR line, else the last one). */
export function telling(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.filter((l) => /^ERROR:|Error:|error:/.test(l));
  const line = (error.length ? error[error.length - 1] : lines[lines.length - 1]) ?? "";
  return line.length > 300 ? line.slice(0, 297) + "..." : line;
}

/** What the connection failure was: "[Errno 111] Connection refused", else pip's telling line. */
function networkDetail(output: string): string {
  const m =
    /Failed to establish a new connection: ([^'")]+)/.exec(output) ??
    /(ProxyError[^'")]*|SSLError[^'")]*|Read timed out[^'")]*|ConnectTimeoutError[^'")]*)/.exec(output);
  return m ? m[1].trim().replace(/[.:,]+$/, "") : telling(output);
}

/** Classify the failure of one step from its output (and the error code of a file operation). */
export function classify(step: "venv" | "pip" | "check" | "files", output: string, code?: string, python?: PythonInfo, platform = "linux"): Failure {
  if (code === "ENOSPC" || code === "EDQUOT" || DISK.test(output)) {
    return { kind: "disk", where: "" };
  }
  if (step === "venv" && NO_VENV.test(output) && python) {
    return { kind: "no-venv", python, platform };
  }
  if (step === "pip") {
    if (NETWORK.test(output)) {
      return { kind: "network", detail: networkDetail(output) };
    }
    if (INDEX.test(output)) {
      return { kind: "index", detail: telling(output) };
    }
  }
  return { kind: "other", step, detail: telling(output) || code || "unknown error" };
}

export type FixAction = "reinstall" | "python" | "settings";

/** One sentence or two: the cause, and the one command or setting that fixes it. */
export function failureMessage(f: Failure, storage = ""): { message: string; action: FixAction } {
  const retry = `then run “${REINSTALL_COMMAND}”.`;
  const getPython = (platform: string) =>
    platform === "win32"
      ? "Install Python 3.10 or newer from python.org (tick “Add python.exe to PATH”), "
      : platform === "darwin"
        ? "Install Python 3.10 or newer (python.org or `brew install python`), "
        : "Install Python 3.10 or newer (`sudo apt install python3`, or your system's package manager), ";
  switch (f.kind) {
    case "no-python":
      return {
        message:
          `bleu-ls needs Python 3.10 or newer to set up its server, and found none` +
          (f.looked.length ? ` (tried ${f.looked.join(", ")})` : " on PATH") +
          `. ${getPython(f.platform)}${retry}`,
        action: "python",
      };
    case "too-old":
      return {
        message:
          `bleu-ls needs Python 3.10 or newer to set up its server; the newest found is ` +
          `Python ${versionText(f.python.version)} (${f.python.executable}). ${getPython(f.platform)}${retry}`,
        action: "python",
      };
    case "no-venv": {
      const v = `${f.python.version[0]}.${f.python.version[1]}`;
      const fix =
        f.platform === "linux"
          ? `Install it with \`sudo apt install python${v}-venv\` (Debian, Ubuntu), `
          : "Reinstall Python from python.org (it includes venv), ";
      return {
        message:
          `bleu-ls cannot create a virtual environment: Python ${versionText(f.python.version)} ` +
          `(${f.python.executable}) lacks its venv module (ensurepip). ${fix}${retry}`,
        action: "reinstall",
      };
    }
    case "disk":
      return {
        message:
          `bleu-ls could not set up its server: the disk is full (it needs ${SIZE_HINT}` +
          `${f.where || storage ? ` in ${f.where || storage}` : ""}). Free some space, ${retry}`,
        action: "reinstall",
      };
    case "network":
      return {
        message:
          `bleu-ls could not set up its server: pip could not reach the package index to download ` +
          `the server's dependencies (${f.detail}). Connect to the internet (behind a proxy: set it in ` +
          `pip's configuration, pip.conf or PIP_PROXY), ${retry}`,
        action: "reinstall",
      };
    case "index":
      return {
        message:
          `bleu-ls could not set up its server: the package index refused or lacks the server's ` +
          `dependencies (${f.detail}). Check pip's index settings (pip.conf, PIP_INDEX_URL), ${retry}`,
        action: "reinstall",
      };
    case "no-wheel":
      return {
        message:
          `bleu-ls could not set up its server: this copy of the extension carries no bleu-ls wheel ` +
          `(${f.where}). Install bleu-ls yourself (\`pip install bleu-ls\`) and set \`bleuLs.server.path\`.`,
        action: "settings",
      };
    case "other":
      return {
        message:
          `bleu-ls could not set up its server: ${f.step} failed (${f.detail}). ` +
          `Set \`bleuLs.server.manage\` to false and install bleu-ls yourself (\`pip install bleu-ls\`), ` +
          `or ${retry.replace(/^then /, "")}`,
        action: "reinstall",
      };
  }
}

// -- the environment on disk ------------------------------------------------

export interface Layout {
  root: string;
  /** The finished environment. */
  env: string;
  python: string;
  marker: string;
}

export function layout(storage: string, platform: string): Layout {
  const env = path.join(storage, "server");
  return { root: storage, env, python: envPython(env, platform), marker: path.join(env, MARKER) };
}

export function envPython(env: string, platform: string): string {
  return platform === "win32" ? path.join(env, "Scripts", "python.exe") : path.join(env, "bin", "python");
}

export interface Marker {
  version: string;
  python: string;
  pythonVersion: string;
  created: string;
}

/** The environment is finished and holds this version: reuse it without running anything. */
export function reusable(l: Layout, version: string): boolean {
  try {
    const m = JSON.parse(fs.readFileSync(l.marker, "utf8")) as Partial<Marker>;
    return m.version === version && fs.statSync(l.python).isFile();
  } catch {
    return false;
  }
}

/** The wheel the .vsix carries for this version, if any. */
export function bundledWheel(dir: string, version: string): string | undefined {
  try {
    const name = fs.readdirSync(dir).find((f) => f.startsWith(`bleu_ls-${version}-`) && f.endsWith(".whl"));
    return name ? path.join(dir, name) : undefined;
  } catch {
    return undefined;
  }
}

// -- setting it up ----------------------------------------------------------

/** Probe the candidates in order until one is recent enough and can make an environment. */
export async function findPython(o: Pick<SetupOptions, "host" | "selectedPython" | "run" | "log">): Promise<Choice> {
  const run = o.run ?? runProgram;
  const log = o.log ?? (() => undefined);
  const probed: Probed[] = [];
  for (const candidate of pythonCandidates(o.host, o.selectedPython)) {
    const r = await run(candidate.command, [...candidate.args, "-c", PROBE_SCRIPT], { timeoutMs: 30000 });
    const info = r.code === 0 ? parseProbe(r.stdout) : undefined;
    log(`${candidate.label}: ${info ? `Python ${versionText(info.version)}, venv ${info.venv && info.ensurepip ? "yes" : "no"}` : telling(r.stderr) || r.error?.message || "does not run"}\n`);
    probed.push({ candidate, info });
    if (info && recentEnough(info.version) && info.venv && info.ensurepip) {
      break;
    }
  }
  return choosePython(probed, o.host.platform);
}

export interface SetupOptions {
  storage: string;
  wheelDir: string;
  version: string;
  host: HostEnv;
  /** The interpreter selected in the Python extension, when there is one. */
  selectedPython?: string;
  /** The Python to build with, when already chosen (findPython); else it is looked for. */
  python?: Choice;
  /** Build afresh even when a finished environment of this version is there. */
  force?: boolean;
  run?: Runner;
  /** The steps, for the progress notification. */
  progress?: (step: string) => void;
  /** pip's and venv's own output, for the output channel. */
  log?: (text: string) => void;
  /** Time allowed to pip (the index may be slow). */
  pipTimeoutMs?: number;
}

export type Setup =
  | { ok: true; python: string; reused: boolean; version: string }
  | { ok: false; failure: Failure };

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function removeQuietly(p: string): void {
  try {
    fs.rmSync(p, { recursive: true, force: true });
  } catch {
    /* best effort */
  }
}

/**
 * Make sure a finished environment holding bleu-ls `version` exists and
 * return its Python.  A new one is built beside (`server.partial-*`) and
 * renamed into place only once it is complete and its `bleu-ls --version`
 * answers the expected version, so a half-made environment is never used;
 * leftovers of an interrupted build are removed first.
 */
export async function ensureManagedServer(o: SetupOptions): Promise<Setup> {
  const run = o.run ?? runProgram;
  const log = o.log ?? (() => undefined);
  const progress = o.progress ?? (() => undefined);
  const l = layout(o.storage, o.host.platform);
  if (!o.force && reusable(l, o.version)) {
    return { ok: true, python: l.python, reused: true, version: o.version };
  }
  const wheel = bundledWheel(o.wheelDir, o.version);
  if (!wheel) {
    return { ok: false, failure: { kind: "no-wheel", where: path.join(o.wheelDir, `bleu_ls-${o.version}-*.whl`) } };
  }

  let choice = o.python;
  if (!choice) {
    progress("looking for Python 3.10 or newer");
    choice = await findPython(o);
  }
  if (!choice.ok) {
    return choice;
  }
  const { python, info } = choice;

  try {
    fs.mkdirSync(o.storage, { recursive: true });
    for (const f of fs.readdirSync(o.storage)) {
      if (abandoned(f)) {
        removeQuietly(path.join(o.storage, f));
      }
    }
  } catch (err) {
    return { ok: false, failure: withWhere(classify("files", String(err), errnoOf(err)), o.storage) };
  }
  const partial = path.join(o.storage, `server.partial-${process.pid}-${Date.now()}`);
  const fail = (f: Failure): Setup => {
    removeQuietly(partial);
    return { ok: false, failure: withWhere(f, o.storage) };
  };

  progress(`creating a Python ${versionText(info.version)} environment`);
  log(`\n$ ${python.command} ${[...python.args, "-m", "venv", partial].join(" ")}\n`);
  const env = managedEnv(process.env);
  const venv = await run(python.command, [...python.args, "-m", "venv", partial], { timeoutMs: 300000, onOutput: log, env });
  if (venv.code !== 0) {
    return fail(classify("venv", venv.stdout + venv.stderr + (venv.error?.message ?? ""), venv.error?.code, info, o.host.platform));
  }

  const py = envPython(partial, o.host.platform);
  progress(`installing bleu-ls ${o.version} and its dependencies with pip`);
  const pipArgs = ["-m", "pip", "install", "--no-input", "--disable-pip-version-check", wheel];
  log(`\n$ ${py} ${pipArgs.join(" ")}\n`);
  const pip = await run(py, pipArgs, { timeoutMs: o.pipTimeoutMs ?? 20 * 60 * 1000, onOutput: log, env });
  if (pip.code !== 0) {
    return fail(classify("pip", pip.stdout + pip.stderr + (pip.error?.message ?? ""), pip.error?.code));
  }

  progress("checking the server");
  const check = await run(py, ["-m", "bleu_ls", "--version"], { timeoutMs: 120000, env });
  log(`bleu-ls --version: ${(check.stdout + check.stderr).trim()}\n`);
  if (!sameVersion(check, o.version)) {
    return fail(
      classify("check", `the installed server answers “${(check.stdout + check.stderr).trim()}”, not bleu-ls ${o.version}`),
    );
  }

  try {
    const marker: Marker = {
      version: o.version,
      python: info.executable,
      pythonVersion: versionText(info.version),
      created: new Date().toISOString(),
    };
    fs.writeFileSync(path.join(partial, MARKER), JSON.stringify(marker, null, 1) + "\n");
    if (fs.existsSync(l.env)) {
      const old = path.join(o.storage, `server.old-${process.pid}-${Date.now()}`);
      fs.renameSync(l.env, old);
      removeQuietly(old);
    }
    fs.renameSync(partial, l.env);
  } catch (err) {
    // another window may have finished the same environment first
    if (reusable(l, o.version)) {
      removeQuietly(partial);
      return { ok: true, python: l.python, reused: true, version: o.version };
    }
    return fail(classify("files", String(err), errnoOf(err)));
  }
  return { ok: true, python: l.python, reused: false, version: o.version };
}

/**
 * A leftover of a build that will never finish: `server.partial-PID-MS` or
 * `server.old-PID-MS` whose process is gone or which is over an hour old
 * (another window may be building its own right now: leave that one alone).
 */
export function abandoned(name: string, now = Date.now(), alive: (pid: number) => boolean = processAlive): boolean {
  const m = /^server\.(?:partial|old)-(\d+)-(\d+)$/.exec(name);
  if (!m) {
    return false;
  }
  const pid = Number(m[1]);
  return now - Number(m[2]) > 60 * 60 * 1000 || pid === process.pid || !alive(pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function withWhere(f: Failure, storage: string): Failure {
  return f.kind === "disk" && !f.where ? { ...f, where: storage } : f;
}
