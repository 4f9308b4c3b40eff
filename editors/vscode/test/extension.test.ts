// Loads the real extension module against the stub `vscode` module.
import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import * as fs from "fs";
import * as os from "os";
import * as path from "path";

import { installVscodeStub, recorded } from "./vscodeStub";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkgVersion = (require("../package.json") as { version: string }).version;

installVscodeStub();

describe("activate", () => {
  it("registers every contributed command; with no Python at all, one message says to install one", async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = "/nonexistent-dir";
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bleu-ls-ext-"));
    fs.mkdirSync(path.join(dir, "ext", "bundled"), { recursive: true });
    fs.writeFileSync(path.join(dir, "ext", "bundled", `bleu_ls-${pkgVersion}-py3-none-any.whl`), "");
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ext = require("../src/extension") as typeof import("../src/extension");
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require("../package.json") as { contributes: { commands: { command: string }[] } };
      const context = {
        subscriptions: [] as unknown[],
        extensionPath: path.join(dir, "ext"),
        globalStorageUri: { fsPath: path.join(dir, "storage") },
      };
      await ext.activate(context as never);
      await ext.settled();
      const registered = [...recorded.commands.keys()].sort();
      assert.deepEqual(registered, pkg.contributes.commands.map((c) => c.command).sort());
      assert.equal(recorded.errors.length, 1);
      assert.match(recorded.errors[0], /needs Python 3\.10 or newer/);
      assert.match(recorded.errors[0], /Reinstall the Managed Server/);
      // no progress notification for the quick search that found nothing
      assert.deepEqual(recorded.progress, []);
      // nothing half-made is left behind
      assert.deepEqual(fs.existsSync(path.join(dir, "storage")) ? fs.readdirSync(path.join(dir, "storage")) : [], []);
      assert.equal(recorded.statusItems.length, 1);
      assert.equal(recorded.statusItems[0].shown, false);
      // Commands run without a server say so rather than throwing.
      await recorded.commands.get("bleu-ls.showReport")!();
      assert.match(recorded.infos.join("\n"), /open a hypothesis file/);

      // bleuLs.server.manage off: the message says how to install the server by hand
      recorded.errors.length = 0;
      recorded.config["bleuLs.server.manage"] = false;
      await recorded.commands.get("bleu-ls.restartServer")!();
      assert.equal(recorded.errors.length, 1);
      assert.match(recorded.errors[0], /not found on PATH/);
      assert.match(recorded.errors[0], /pip install bleu-ls/);
      assert.match(recorded.errors[0], /bleuLs\.server\.manage/);
      delete recorded.config["bleuLs.server.manage"];
      await ext.deactivate();
    } finally {
      process.env.PATH = savedPath;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a bleuLs.server.path that does not exist", async () => {
    recorded.errors.length = 0;
    recorded.config["bleuLs.server.path"] = "/no/such/bleu-ls";
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ext = require("../src/extension") as typeof import("../src/extension");
    await recorded.commands.get("bleu-ls.restartServer")!();
    assert.equal(recorded.errors.length, 1);
    assert.match(recorded.errors[0], /bleuLs\.server\.path is set to "\/no\/such\/bleu-ls"/);
    await ext.deactivate();
    delete recorded.config["bleuLs.server.path"];
  });
});
