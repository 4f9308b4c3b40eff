import assert = require("node:assert/strict");
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, it } from "node:test";

import {
  abandoned,
  choosePython,
  classify,
  ensureManagedServer,
  failureMessage,
  layout,
  managedEnv,
  MARKER,
  parseProbe,
  parseServerVersion,
  Probed,
  PythonInfo,
  pythonCandidates,
  RunResult,
  Runner,
  sameVersion,
} from "../src/managed";
import { HostEnv } from "../src/serverCommand";

function host(files: string[], extra: Partial<HostEnv> = {}): HostEnv {
  const set = new Set(files);
  return { platform: "linux", env: { PATH: "/usr/local/bin:/usr/bin" }, home: "/home/ana", isFile: (p) => set.has(p), ...extra };
}

const info = (v: [number, number, number], extra: Partial<PythonInfo> = {}): PythonInfo => ({
  version: v,
  executable: `/usr/bin/python${v[0]}.${v[1]}`,
  venv: true,
  ensurepip: true,
  ...extra,
});
const cand = (label: string) => ({ command: `/usr/bin/${label}`, args: [], label });

// What Debian's python3 prints when python3-venv is not installed (python3 -m venv DIR).
const DEBIAN_NO_VENV = `The virtual environment was not successfully created because ensurepip is not
available.  On Debian/Ubuntu systems, you need to install the python3-venv
package using the following command.

    apt install python3.11-venv

You may need to use sudo with that command.  After installing the python3-venv
package, recreate your virtual environment.

Failing command: /tmp/x/bin/python3
`;
// pip 23 with no network (abridged)
const PIP_OFFLINE = `Processing ./bleu_ls-0.1.0-py3-none-any.whl
WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/pygls/
ERROR: Could not find a version that satisfies the requirement pygls<3,>=2.0 (from bleu-ls) (from versions: none)
ERROR: No matching distribution found for pygls<3,>=2.0
`;
const PIP_FORBIDDEN = `Processing ./bleu_ls-0.1.0-py3-none-any.whl
ERROR: HTTP error 403 while getting https://mirror.example/simple/numpy/
ERROR: Could not install requirement numpy>=1.24 from https://mirror.example/simple/numpy/ because of HTTP error 403 Client Error: Forbidden for url: https://mirror.example/simple/numpy/
`;
const PIP_FULL = `Installing collected packages: numpy
ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device
`;

describe("the version handshake", () => {
  it("reads bleu-ls --version", () => {
    assert.equal(parseServerVersion("bleu-ls 0.1.0\n"), "0.1.0");
    assert.equal(parseServerVersion("bleu-ls 1.2.0rc1"), "1.2.0rc1");
    assert.equal(parseServerVersion("usage: bleu-ls {score,check} ...\n"), undefined);
    assert.equal(parseServerVersion(""), undefined);
  });
  it("accepts only an exit 0 that names the extension's own version", () => {
    const ok: RunResult = { code: 0, stdout: "bleu-ls 0.1.0\n", stderr: "" };
    assert.ok(sameVersion(ok, "0.1.0"));
    assert.ok(!sameVersion(ok, "0.2.0"));
    assert.ok(!sameVersion({ ...ok, code: 2 }, "0.1.0"));
    // an old server without --version prints its usage and fails
    assert.ok(!sameVersion({ code: 2, stdout: "", stderr: "bleu-ls: unknown command '--version'" }, "0.1.0"));
    assert.ok(!sameVersion({ code: null, stdout: "", stderr: "", error: new Error("ENOENT") as NodeJS.ErrnoException }, "0.1.0"));
  });
  it("is the version package.json and pyproject.toml carry", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = require("../package.json") as { version: string };
    const pyproject = fs.readFileSync(path.join(__dirname, "..", "..", "..", "..", "pyproject.toml"), "utf8");
    assert.equal(/^version\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1], pkg.version);
  });
});

describe("pythonCandidates", () => {
  it("puts the Python extension's interpreter first, then python3 and python from PATH", () => {
    const c = pythonCandidates(host(["/usr/bin/python3", "/usr/local/bin/python"]), "/home/ana/.venv/bin/python");
    assert.deepEqual(
      c.map((x) => [x.command, ...x.args]),
      [["/home/ana/.venv/bin/python"], ["/usr/bin/python3"], ["/usr/local/bin/python"]],
    );
    assert.match(c[0].label, /Python extension/);
  });
  it("on macOS, skips /usr/bin/python3 when it is only the developer tools' installer stub", () => {
    const mac = (files: string[]) => host(files, { platform: "darwin", env: { PATH: "/usr/bin:/opt/homebrew/bin" } });
    const brew = "/opt/homebrew/bin/python3";
    assert.deepEqual(pythonCandidates(mac(["/usr/bin/python3", brew])).map((c) => c.command), [brew]);
    const clt = "/Library/Developer/CommandLineTools/usr/bin/python3";
    assert.deepEqual(pythonCandidates(mac(["/usr/bin/python3", clt])).map((c) => c.command), ["/usr/bin/python3"]);
  });
  it("runs the managed Python without PYTHONPATH, PYTHONHOME or PIP_USER, keeping pip's configuration and proxy", () => {
    const env = managedEnv({
      PATH: "/usr/bin", PYTHONPATH: "/work/checkout", PYTHONHOME: "/opt/py", PIP_USER: "1",
      PIP_INDEX_URL: "https://mirror.example/simple", HTTPS_PROXY: "http://proxy:3128", PIP_CONFIG_FILE: "/etc/pip.conf",
    });
    assert.deepEqual(env, {
      PATH: "/usr/bin", PIP_INDEX_URL: "https://mirror.example/simple", HTTPS_PROXY: "http://proxy:3128", PIP_CONFIG_FILE: "/etc/pip.conf",
    });
  });
  it("finds nothing on an empty PATH", () => {
    assert.deepEqual(pythonCandidates(host([], { env: { PATH: "" } })), []);
  });
  it("on Windows: python, then the py -3 launcher; never the Store alias", () => {
    const h = host(
      ["C:\\Users\\ana\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe", "C:\\Windows\\py.exe", "C:\\Python312\\python.exe"],
      {
        platform: "win32",
        env: { Path: "C:\\Users\\ana\\AppData\\Local\\Microsoft\\WindowsApps;C:\\Windows;C:\\Python312", PATHEXT: ".exe" },
      },
    );
    assert.deepEqual(
      pythonCandidates(h).map((x) => [x.command, ...x.args]),
      [["C:\\Python312\\python.exe"], ["C:\\Windows\\py.exe", "-3"]],
    );
  });
});

describe("choosePython", () => {
  it("reads the probe's JSON line", () => {
    const p = parseProbe('noise\n{"version": [3, 11, 2], "executable": "/usr/bin/python3", "venv": true, "ensurepip": false}\n');
    assert.deepEqual(p, { version: [3, 11, 2], executable: "/usr/bin/python3", venv: true, ensurepip: false });
    assert.equal(parseProbe("Python 3.11.2"), undefined);
  });
  it("takes the first recent Python that can make an environment, in the order given", () => {
    const probed: Probed[] = [
      { candidate: cand("python3.9"), info: info([3, 9, 18]) },
      { candidate: cand("python3"), info: info([3, 12, 1]) },
      { candidate: cand("python"), info: info([3, 11, 2]) },
    ];
    const r = choosePython(probed, "linux");
    assert.ok(r.ok);
    assert.equal(r.ok && r.python.label, "python3");
  });
  it("3.10 is recent enough, 3.9 is not", () => {
    assert.ok(choosePython([{ candidate: cand("a"), info: info([3, 10, 0]) }], "linux").ok);
    const r = choosePython([{ candidate: cand("a"), info: info([3, 9, 18]) }, { candidate: cand("b"), info: info([3, 8, 10]) }], "linux");
    assert.ok(!r.ok && r.failure.kind === "too-old");
    const m = !r.ok ? failureMessage(r.failure).message : "";
    // names the newest one found and the fix
    assert.match(m, /Python 3\.9\.18 \(\/usr\/bin\/python3\.9\)/);
    assert.match(m, /Python 3\.10 or newer/);
    assert.match(m, /Reinstall the Managed Server/);
  });
  it("no Python: says where it looked", () => {
    const r = choosePython([{ candidate: cand("python3") }], "linux");
    assert.ok(!r.ok && r.failure.kind === "no-python");
    assert.match(!r.ok ? failureMessage(r.failure).message : "", /found none \(tried python3\)/);
    assert.equal(!r.ok && failureMessage(r.failure).action, "python");
  });
  it("a recent Python without ensurepip: the Debian package to install", () => {
    const r = choosePython([{ candidate: cand("python3"), info: info([3, 11, 2], { ensurepip: false }) }], "linux");
    assert.ok(!r.ok && r.failure.kind === "no-venv");
    assert.match(!r.ok ? failureMessage(r.failure).message : "", /sudo apt install python3\.11-venv/);
  });
});

describe("classify", () => {
  const py = info([3, 11, 2]);
  it("a venv that failed for want of ensurepip (Debian's message)", () => {
    const f = classify("venv", DEBIAN_NO_VENV, undefined, py, "linux");
    assert.equal(f.kind, "no-venv");
    assert.match(failureMessage(f).message, /python3\.11-venv/);
  });
  it("pip without network, and an index that refuses", () => {
    const net = classify("pip", PIP_OFFLINE);
    assert.equal(net.kind, "network");
    assert.match(failureMessage(net).message, /could not reach the package index/);
    assert.match(failureMessage(net).message, /\(\[Errno -3\] Temporary failure in name resolution\)/);
    const refused = classify("pip", PIP_FORBIDDEN);
    assert.equal(refused.kind, "index");
    assert.match(failureMessage(refused).message, /HTTP error 403|403 Client Error/);
    assert.match(failureMessage(refused).message, /PIP_INDEX_URL/);
  });
  it("a full disk, from pip's output or a file operation's code", () => {
    assert.equal(classify("pip", PIP_FULL).kind, "disk");
    assert.equal(classify("files", "Error: ENOSPC: no space left on device, mkdir", "ENOSPC").kind, "disk");
    assert.match(failureMessage(classify("pip", PIP_FULL), "/home/ana/.vscode").message, /disk is full.*\/home\/ana\/\.vscode/);
  });
  it("anything else names the step and its last error line", () => {
    const f = classify("pip", "ERROR: Something odd happened\n");
    assert.equal(f.kind, "other");
    assert.match(failureMessage(f).message, /pip failed \(ERROR: Something odd happened\)/);
    assert.match(failureMessage(f).message, /bleuLs\.server\.manage/);
  });
});

// -- the set-up, with a fake Python that makes the files a real one would ----

interface FakeOptions {
  pythons?: Record<string, PythonInfo | undefined>;
  venvOutput?: { code: number; stderr: string };
  pipOutput?: { code: number; stderr: string };
  version?: string;
}

function fakeRunner(o: FakeOptions, calls: string[]): Runner {
  return async (command, args) => {
    calls.push([path.basename(command), ...args.map((a) => (a.length > 40 ? "<long>" : a))].join(" "));
    const ok = (stdout = ""): RunResult => ({ code: 0, stdout, stderr: "" });
    if (args.includes("-c")) {
      const i = (o.pythons ?? {})[command];
      return i ? ok(JSON.stringify(i)) : { code: null, stdout: "", stderr: "", error: Object.assign(new Error("spawn ENOENT"), { code: "ENOENT" }) };
    }
    if (args.includes("venv")) {
      if (o.venvOutput && o.venvOutput.code !== 0) {
        fs.mkdirSync(args[args.length - 1], { recursive: true }); // a half-made environment
        return { code: o.venvOutput.code, stdout: "", stderr: o.venvOutput.stderr };
      }
      const env = args[args.length - 1];
      fs.mkdirSync(path.join(env, "bin"), { recursive: true });
      fs.writeFileSync(path.join(env, "bin", "python"), "");
      return ok();
    }
    if (args.includes("pip")) {
      return o.pipOutput ? { code: o.pipOutput.code, stdout: "", stderr: o.pipOutput.stderr } : ok("Successfully installed bleu-ls-0.1.0\n");
    }
    if (args.includes("--version")) {
      return ok(`bleu-ls ${o.version ?? "0.1.0"}\n`);
    }
    throw new Error(`unexpected ${command} ${args.join(" ")}`);
  };
}

function sandbox(): { dir: string; wheels: string; storage: string; host: HostEnv } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bleu-ls-managed-"));
  const wheels = path.join(dir, "bundled");
  fs.mkdirSync(wheels);
  fs.writeFileSync(path.join(wheels, "bleu_ls-0.1.0-py3-none-any.whl"), "");
  return { dir, wheels, storage: path.join(dir, "storage"), host: host(["/usr/bin/python3", "/usr/bin/python"]) };
}

describe("abandoned", () => {
  it("removes leftovers of dead or old builds, never another window's build in progress", () => {
    const now = 1_800_000_000_000;
    const alive = (pid: number) => pid === 4242;
    assert.ok(abandoned(`server.partial-1111-${now - 1000}`, now, alive)); // its process is gone
    assert.ok(!abandoned(`server.partial-4242-${now - 1000}`, now, alive)); // still building
    assert.ok(abandoned(`server.partial-4242-${now - 2 * 3600 * 1000}`, now, alive)); // over an hour
    assert.ok(abandoned(`server.old-1111-${now}`, now, alive));
    assert.ok(!abandoned("server", now, alive));
    assert.ok(!abandoned("notes.txt", now, alive));
  });
});

describe("ensureManagedServer", () => {
  it("builds beside, moves into place with a marker, and the next start reuses it without running anything", async () => {
    const s = sandbox();
    const calls: string[] = [];
    const steps: string[] = [];
    const run = fakeRunner({ pythons: { "/usr/bin/python3": info([3, 11, 2]) } }, calls);
    const r = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.1.0", host: s.host, run, progress: (x) => steps.push(x) });
    const l = layout(s.storage, "linux");
    assert.deepEqual(r, { ok: true, python: l.python, reused: false, version: "0.1.0" });
    assert.deepEqual(steps, [
      "looking for Python 3.10 or newer",
      "creating a Python 3.11.2 environment",
      "installing bleu-ls 0.1.0 and its dependencies with pip",
      "checking the server",
    ]);
    assert.equal(calls[0], "python3 -c <long>");
    assert.equal(calls[1], "python3 -m venv <long>");
    assert.match(calls[2], /^python -m pip install --no-input --disable-pip-version-check /);
    assert.deepEqual(fs.readdirSync(s.storage), ["server"]);
    const marker = JSON.parse(fs.readFileSync(path.join(l.env, MARKER), "utf8"));
    assert.equal(marker.version, "0.1.0");
    assert.equal(marker.pythonVersion, "3.11.2");

    calls.length = 0;
    const again = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.1.0", host: s.host, run });
    assert.deepEqual(again, { ok: true, python: l.python, reused: true, version: "0.1.0" });
    assert.deepEqual(calls, []);
    fs.rmSync(s.dir, { recursive: true, force: true });
  });

  it("replaces an environment of another version (the extension was updated)", async () => {
    const s = sandbox();
    const l = layout(s.storage, "linux");
    fs.mkdirSync(path.join(l.env, "bin"), { recursive: true });
    fs.writeFileSync(l.python, "");
    fs.writeFileSync(l.marker, JSON.stringify({ version: "0.0.9" }));
    fs.writeFileSync(path.join(l.env, "old-file"), "");
    const calls: string[] = [];
    const run = fakeRunner({ pythons: { "/usr/bin/python3": info([3, 11, 2]) } }, calls);
    const r = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.1.0", host: s.host, run });
    assert.ok(r.ok && !r.reused);
    assert.ok(!fs.existsSync(path.join(l.env, "old-file")));
    assert.equal(JSON.parse(fs.readFileSync(l.marker, "utf8")).version, "0.1.0");
    assert.deepEqual(fs.readdirSync(s.storage), ["server"]);
    fs.rmSync(s.dir, { recursive: true, force: true });
  });

  it("never reuses a half-made environment: no marker, or leftovers of an interrupted build", async () => {
    const s = sandbox();
    const l = layout(s.storage, "linux");
    fs.mkdirSync(path.join(l.env, "bin"), { recursive: true });
    fs.writeFileSync(l.python, ""); // no marker
    fs.mkdirSync(path.join(s.storage, "server.partial-1-2"), { recursive: true });
    const calls: string[] = [];
    const run = fakeRunner({ pythons: { "/usr/bin/python3": info([3, 11, 2]) } }, calls);
    const r = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.1.0", host: s.host, run });
    assert.ok(r.ok && !r.reused);
    assert.ok(calls.some((c) => c.includes("pip install")));
    assert.deepEqual(fs.readdirSync(s.storage), ["server"]);
    fs.rmSync(s.dir, { recursive: true, force: true });
  });

  it("skips a too-old python3 for a recent python", async () => {
    const s = sandbox();
    const calls: string[] = [];
    const run = fakeRunner({ pythons: { "/usr/bin/python3": info([3, 8, 10]), "/usr/bin/python": info([3, 12, 0]) } }, calls);
    const r = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.1.0", host: s.host, run });
    assert.ok(r.ok);
    assert.ok(calls.some((c) => c.startsWith("python -m venv")), calls.join("\n"));
    fs.rmSync(s.dir, { recursive: true, force: true });
  });

  it("a failed venv or pip leaves nothing behind and says why", async () => {
    for (const [o, kind] of [
      [{ venvOutput: { code: 1, stderr: DEBIAN_NO_VENV } }, "no-venv"],
      [{ pipOutput: { code: 1, stderr: PIP_OFFLINE } }, "network"],
      [{ pipOutput: { code: 1, stderr: PIP_FORBIDDEN } }, "index"],
      [{ pipOutput: { code: 1, stderr: PIP_FULL } }, "disk"],
      [{ version: "0.0.9" }, "other"],
    ] as [FakeOptions, string][]) {
      const s = sandbox();
      const run = fakeRunner({ pythons: { "/usr/bin/python3": info([3, 11, 2]) }, ...o }, []);
      const r = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.1.0", host: s.host, run });
      assert.ok(!r.ok && r.failure.kind === kind, `${kind}: ${JSON.stringify(r)}`);
      if (!r.ok && r.failure.kind === "disk") {
        assert.equal(r.failure.where, s.storage);
      }
      assert.deepEqual(fs.readdirSync(s.storage), [], kind);
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  });

  it("without the bundled wheel of its version: says so, runs nothing", async () => {
    const s = sandbox();
    const calls: string[] = [];
    const r = await ensureManagedServer({ storage: s.storage, wheelDir: s.wheels, version: "0.2.0", host: s.host, run: fakeRunner({}, calls) });
    assert.ok(!r.ok && r.failure.kind === "no-wheel");
    assert.deepEqual(calls, []);
    fs.rmSync(s.dir, { recursive: true, force: true });
  });
});
