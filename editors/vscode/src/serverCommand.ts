// How the extension finds the bleu-ls server.  Pure logic (no `vscode`
// import) so that it can be unit-tested with plain Node.

import * as path from "path";

export interface ServerCommandSettings {
  /** bleuLs.server.path: the bleu-ls executable. */
  path?: string;
  /** bleuLs.server.interpreter: a Python with bleu_ls installed. */
  interpreter?: string;
}

export interface HostEnv {
  platform: string;
  env: Record<string, string | undefined>;
  home: string;
  /** First workspace folder (for relative paths and ${workspaceFolder}). */
  workspaceFolder?: string;
  isFile(p: string): boolean;
}

export type Resolution =
  | { ok: true; command: string; args: string[]; source: "path" | "interpreter" | "PATH" | "managed"; display: string }
  /** notFound: nothing is configured and no bleu-ls is on PATH (the managed server's turn). */
  | { ok: false; message: string; notFound?: boolean };

export const INSTALL_HINT =
  "Install the server with `pip install bleu-ls` (or `pipx install bleu-ls`), " +
  "or set `bleuLs.server.path` to the bleu-ls executable, " +
  "or `bleuLs.server.interpreter` to a Python that has bleu-ls installed.";

/** Expand ~, ${workspaceFolder}, ${userHome} and ${env:NAME}; resolve relative paths against the workspace. */
export function expandPath(value: string, host: HostEnv): string {
  let p = value.trim();
  p = p.replace(/\$\{userHome\}/g, host.home);
  p = p.replace(/\$\{env:([^}]+)\}/g, (_m, name: string) => host.env[name] ?? "");
  if (host.workspaceFolder !== undefined) {
    p = p.replace(/\$\{workspaceFolder\}/g, host.workspaceFolder);
  }
  if (p === "~") {
    p = host.home;
  } else if (p.startsWith("~/") || p.startsWith("~\\")) {
    p = joinFor(host, host.home, p.slice(2));
  }
  const hasSep = p.includes("/") || (host.platform === "win32" && p.includes("\\"));
  if (hasSep && !isAbsoluteFor(host, p) && host.workspaceFolder !== undefined) {
    p = joinFor(host, host.workspaceFolder, p);
  }
  return p;
}

function pathApi(host: HostEnv): typeof path.posix {
  return host.platform === "win32" ? path.win32 : path.posix;
}

function isAbsoluteFor(host: HostEnv, p: string): boolean {
  return pathApi(host).isAbsolute(p);
}

function joinFor(host: HostEnv, a: string, b: string): string {
  return pathApi(host).join(a, b);
}

/** The first executable called `name` on PATH (with PATHEXT on Windows). */
export function findOnPath(name: string, host: HostEnv): string | undefined {
  const api = pathApi(host);
  const sep = host.platform === "win32" ? ";" : ":";
  const pathVar = host.env.PATH ?? host.env.Path ?? "";
  const exts =
    host.platform === "win32"
      ? ["", ...(host.env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)]
      : [""];
  for (const dir of pathVar.split(sep)) {
    if (!dir) {
      continue;
    }
    for (const ext of exts) {
      const candidate = api.join(dir, name + ext);
      if (host.isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function locate(value: string, host: HostEnv): string | undefined {
  const p = expandPath(value, host);
  const hasSep = p.includes("/") || (host.platform === "win32" && p.includes("\\"));
  if (hasSep) {
    return host.isFile(p) ? p : undefined;
  }
  return findOnPath(p, host);
}

/**
 * Decide how to start the server: bleuLs.server.path, else
 * bleuLs.server.interpreter (`<python> -m bleu_ls serve`), else `bleu-ls`
 * from PATH.  A setting that is set but wrong is reported, never silently
 * skipped: the user asked for it.
 */
export function resolveServerCommand(settings: ServerCommandSettings, host: HostEnv): Resolution {
  const exe = (settings.path ?? "").trim();
  if (exe) {
    const found = locate(exe, host);
    if (!found) {
      return {
        ok: false,
        message:
          `bleuLs.server.path is set to "${exe}", but no such executable exists. ` +
          "Fix the path, or clear the setting to use bleu-ls from PATH.",
      };
    }
    return { ok: true, command: found, args: ["serve"], source: "path", display: `${found} serve` };
  }
  const python = (settings.interpreter ?? "").trim();
  if (python) {
    const found = locate(python, host);
    if (!found) {
      return {
        ok: false,
        message:
          `bleuLs.server.interpreter is set to "${python}", but no such interpreter exists. ` +
          "Point it at a Python that has bleu-ls installed (`python -m pip install bleu-ls`), or clear it.",
      };
    }
    return {
      ok: true,
      command: found,
      args: ["-m", "bleu_ls", "serve"],
      source: "interpreter",
      display: `${found} -m bleu_ls serve`,
    };
  }
  const onPath = findOnPath("bleu-ls", host);
  if (onPath) {
    return { ok: true, command: onPath, args: ["serve"], source: "PATH", display: `${onPath} serve` };
  }
  return { ok: false, message: `The bleu-ls server was not found on PATH. ${INSTALL_HINT}`, notFound: true };
}

/** The message shown when a resolved command fails to start or dies at once. */
export function startFailureMessage(display: string, source: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
  let fix = INSTALL_HINT;
  if (source === "interpreter") {
    fix =
      "Check that this Python has bleu-ls installed (`<python> -m pip install bleu-ls`), " +
      "or set `bleuLs.server.path` instead.";
  } else if (source === "path") {
    fix = "Check `bleuLs.server.path`, or clear it to use bleu-ls from PATH.";
  } else if (source === "managed") {
    fix = "Run “bleu-ls: Reinstall the Managed Server” (the output channel bleu-ls holds pip's log).";
  }
  return `bleu-ls: the server did not start (\`${display}\`: ${reason}). ${fix}`;
}
