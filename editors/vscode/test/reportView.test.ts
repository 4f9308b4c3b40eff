import assert = require("node:assert/strict");
import { describe, it } from "node:test";
import * as vm from "node:vm";

import { bridgeScript, isRevealMessage, placeholderHtml, withBridge } from "../src/reportView";

describe("withBridge", () => {
  it("adds the bridge script once, just before </body>", () => {
    const out = withBridge("<html><body><p>r</p></body></html>");
    assert.equal(out.split("acquireVsCodeApi").length, 2);
    assert.ok(out.indexOf("acquireVsCodeApi") < out.indexOf("</body>"));
    assert.ok(out.endsWith("</body></html>"));
  });
  it("appends the script to a page without </body>", () => {
    assert.match(withBridge("<p>r</p>"), /^<p>r<\/p><script>/);
  });
});

describe("bridgeScript", () => {
  it("posts the 1-based line of a clicked [data-line] element and ignores other clicks", () => {
    const posted: unknown[] = [];
    const handlers: Record<string, (e: unknown) => void> = {};
    let prevented = 0;
    const element = (line: string | null) => ({
      closest: (sel: string) => (sel === "[data-line]" && line !== null ? { getAttribute: () => line } : null),
    });
    const sandbox = {
      acquireVsCodeApi: () => ({ getState: () => undefined, setState: () => undefined, postMessage: (m: unknown) => posted.push(m) }),
      window: { addEventListener: () => undefined, scrollTo: () => undefined, scrollY: 0 },
      document: {
        addEventListener: (name: string, fn: (e: unknown) => void) => (handlers[name] = fn),
        createElement: () => ({}),
        head: { appendChild: () => undefined },
      },
      setTimeout,
      clearTimeout,
    };
    vm.runInNewContext(bridgeScript(), sandbox);
    handlers.click({ target: element("42"), preventDefault: () => prevented++ });
    handlers.click({ target: element(null), preventDefault: () => prevented++ });
    handlers.click({ target: element("zero"), preventDefault: () => prevented++ });
    assert.deepEqual(JSON.parse(JSON.stringify(posted)), [{ type: "reveal", line: 42 }]);
    assert.equal(prevented, 1);
  });
});

describe("isRevealMessage", () => {
  it("accepts whole line numbers from 1 on and nothing else", () => {
    assert.ok(isRevealMessage({ type: "reveal", line: 1 }));
    assert.ok(!isRevealMessage({ type: "reveal", line: 0 }));
    assert.ok(!isRevealMessage({ type: "reveal", line: 2.5 }));
    assert.ok(!isRevealMessage({ type: "other", line: 3 }));
    assert.ok(!isRevealMessage(null));
  });
});

describe("placeholderHtml", () => {
  it("escapes the message", () => {
    assert.match(placeholderHtml("a <b> & c"), /a &lt;b&gt; &amp; c/);
  });
});
