import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import { expandPath, findOnPath, HostEnv, resolveServerCommand, startFailureMessage } from "../src/serverCommand";

function host(files: string[], extra: Partial<HostEnv> = {}): HostEnv {
  const set = new Set(files);
  return {
    platform: "linux",
    env: { PATH: "/usr/local/bin:/usr/bin" },
    home: "/home/ana",
    workspaceFolder: "/work/project",
    isFile: (p) => set.has(p),
    ...extra,
  };
}

describe("resolveServerCommand", () => {
  it("falls back to bleu-ls on PATH, first match wins", () => {
    const r = resolveServerCommand({}, host(["/usr/bin/bleu-ls", "/usr/local/bin/bleu-ls"]));
    assert.deepEqual(r, {
      ok: true,
      command: "/usr/local/bin/bleu-ls",
      args: ["serve"],
      source: "PATH",
      display: "/usr/local/bin/bleu-ls serve",
    });
  });

  it("explains the fix when nothing is found", () => {
    const r = resolveServerCommand({ path: "", interpreter: "  " }, host([]));
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /not found on PATH/);
      assert.match(r.message, /pip install bleu-ls/);
      assert.match(r.message, /bleuLs\.server\.path/);
      assert.match(r.message, /bleuLs\.server\.interpreter/);
    }
  });

  it("uses bleuLs.server.path before the interpreter and PATH", () => {
    const h = host(["/home/ana/.local/bin/bleu-ls", "/usr/bin/python3", "/usr/bin/bleu-ls"]);
    const r = resolveServerCommand({ path: "~/.local/bin/bleu-ls", interpreter: "/usr/bin/python3" }, h);
    assert.equal(r.ok && r.command, "/home/ana/.local/bin/bleu-ls");
    assert.deepEqual(r.ok && r.args, ["serve"]);
    assert.equal(r.ok && r.source, "path");
  });

  it("resolves a relative path and ${workspaceFolder} against the workspace", () => {
    const h = host(["/work/project/.venv/bin/bleu-ls"]);
    for (const p of [".venv/bin/bleu-ls", "${workspaceFolder}/.venv/bin/bleu-ls"]) {
      const r = resolveServerCommand({ path: p }, h);
      assert.equal(r.ok && r.command, "/work/project/.venv/bin/bleu-ls", p);
    }
  });

  it("reports a wrong bleuLs.server.path instead of silently using PATH", () => {
    const r = resolveServerCommand({ path: "/opt/nope/bleu-ls" }, host(["/usr/bin/bleu-ls"]));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : "", /bleuLs\.server\.path is set to "\/opt\/nope\/bleu-ls"/);
  });

  it("runs <python> -m bleu_ls serve for bleuLs.server.interpreter, looked up on PATH when bare", () => {
    const r = resolveServerCommand({ interpreter: "python3" }, host(["/usr/bin/python3", "/usr/bin/bleu-ls"]));
    assert.deepEqual(r.ok && [r.command, ...r.args], ["/usr/bin/python3", "-m", "bleu_ls", "serve"]);
    assert.equal(r.ok && r.source, "interpreter");
  });

  it("reports a missing interpreter", () => {
    const r = resolveServerCommand({ interpreter: "/nowhere/python" }, host(["/usr/bin/bleu-ls"]));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : "", /bleuLs\.server\.interpreter/);
  });

  it("honours PATHEXT on Windows", () => {
    const h = host(["C:\\Tools\\bleu-ls.EXE"], {
      platform: "win32",
      env: { Path: "C:\\Windows;C:\\Tools", PATHEXT: ".COM;.EXE" },
      home: "C:\\Users\\ana",
      workspaceFolder: "C:\\work",
    });
    assert.equal(findOnPath("bleu-ls", h), "C:\\Tools\\bleu-ls.EXE");
  });
});

describe("expandPath", () => {
  it("expands ~, ${userHome} and ${env:NAME}", () => {
    const h = host([], { env: { PATH: "", VENV: "/srv/venv" } });
    assert.equal(expandPath("~/x/bleu-ls", h), "/home/ana/x/bleu-ls");
    assert.equal(expandPath("${userHome}/y", h), "/home/ana/y");
    assert.equal(expandPath("${env:VENV}/bin/python", h), "/srv/venv/bin/python");
    assert.equal(expandPath("bleu-ls", h), "bleu-ls");
  });
});

describe("startFailureMessage", () => {
  it("names the command, the reason and a fix that fits the source", () => {
    const m = startFailureMessage("/usr/bin/python3 -m bleu_ls serve", "interpreter", new Error("No module named bleu_ls"));
    assert.match(m, /python3 -m bleu_ls serve/);
    assert.match(m, /No module named bleu_ls/);
    assert.match(m, /pip install bleu-ls/);
  });
});
