// Build the bleu-ls wheel the .vsix carries (bundled/bleu_ls-<version>-py3-none-any.whl),
// from the repository's Python project, for the managed server (src/managed.ts).
// The wheel's version must be the extension's: the extension installs the
// wheel of its own version and asks the server for it (`bleu-ls --version`).
//
// Python: $BLEU_LS_PYTHON, else python3, else python.  `python -m build` when
// the build package is installed, else `pip wheel --no-deps` (which fetches
// setuptools and wheel for its isolated build from pip's index or find-links).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ext = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const project = resolve(ext, "..", "..");
const out = join(ext, "bundled");
const version = JSON.parse(readFileSync(join(ext, "package.json"), "utf8")).version;

const pyproject = readFileSync(join(project, "pyproject.toml"), "utf8");
const pyVersion = /^version\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1];
if (pyVersion !== version) {
  console.error(`build-wheel: pyproject.toml says version ${pyVersion}, package.json ${version}: make them equal`);
  process.exit(1);
}

// run from bundled/: in the project folder a leftover build/ folder would pass for the build package
const works = (cmd, args) => spawnSync(cmd, args, { stdio: "ignore", cwd: tmpdir() }).status === 0;
const python = [process.env.BLEU_LS_PYTHON, "python3", "python"].find((p) => p && works(p, ["--version"]));
if (!python) {
  console.error("build-wheel: no Python found (set BLEU_LS_PYTHON)");
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const args = works(python, ["-c", "import build.__main__"])
  ? ["-m", "build", "--wheel", "--outdir", out, project]
  : ["-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q", "-w", out, project];
const r = spawnSync(python, args, { stdio: ["ignore", "inherit", "inherit"], cwd: out });
if (r.status !== 0) {
  console.error(`build-wheel: ${python} ${args.join(" ")} failed`);
  process.exit(1);
}
const wheels = readdirSync(out).filter((f) => f.endsWith(".whl"));
const want = `bleu_ls-${version}-py3-none-any.whl`;
if (wheels.length !== 1 || wheels[0] !== want) {
  console.error(`build-wheel: expected ${want} in ${out}, found ${wheels.join(", ") || "nothing"}`);
  process.exit(1);
}
console.log(`build-wheel: ${join("bundled", want)}`);
