// Loads the real extension module against the stub `vscode` module.
import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import { installVscodeStub, recorded } from "./vscodeStub";

installVscodeStub();

describe("activate", () => {
  it("registers every contributed command and explains how to install a missing server", async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = "/nonexistent-dir";
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ext = require("../src/extension") as typeof import("../src/extension");
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require("../package.json") as { contributes: { commands: { command: string }[] } };
      const context = { subscriptions: [] as unknown[] };
      await ext.activate(context as never);
      const registered = [...recorded.commands.keys()].sort();
      assert.deepEqual(registered, pkg.contributes.commands.map((c) => c.command).sort());
      assert.equal(recorded.errors.length, 1);
      assert.match(recorded.errors[0], /not found on PATH/);
      assert.match(recorded.errors[0], /pip install bleu-ls/);
      assert.equal(recorded.statusItems.length, 1);
      assert.equal(recorded.statusItems[0].shown, false);
      // Commands run without a server say so rather than throwing.
      await recorded.commands.get("bleu-ls.showReport")!();
      assert.match(recorded.infos.join("\n"), /open a hypothesis file/);
      await ext.deactivate();
    } finally {
      process.env.PATH = savedPath;
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
