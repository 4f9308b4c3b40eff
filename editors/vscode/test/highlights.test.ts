// The semantic-tokens middleware: a large document's whole-document requests
// never reach the server and end as a cancellation; ranges always go through.
import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import { installVscodeStub } from "./vscodeStub";

installVscodeStub();

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tokensMiddleware, VIEWPORT_TOKENS_LINES } = require("../src/highlights") as typeof import("../src/highlights");

const doc = (lineCount: number) => ({ lineCount }) as never; // a new open document each time
const token = {} as never;

describe("tokensMiddleware", () => {
  it("passes whole-document requests of a document up to the limit to the server", () => {
    for (const n of [1, 600, VIEWPORT_TOKENS_LINES]) {
      const asked: string[] = [];
      const full = tokensMiddleware.provideDocumentSemanticTokens(doc(n), token, () => {
        asked.push("full");
        return "full-answer" as never;
      });
      const edits = tokensMiddleware.provideDocumentSemanticTokensEdits(doc(n), "7", token, (_d, prev) => {
        asked.push(`delta ${prev}`);
        return "delta-answer" as never;
      });
      assert.equal(full, "full-answer");
      assert.equal(edits, "delta-answer");
      assert.deepEqual(asked, ["full", "delta 7"]);
    }
  });

  it("ends a larger document's whole-document requests as a cancellation, without asking the server", () => {
    for (const n of [VIEWPORT_TOKENS_LINES + 1, 100_000]) {
      let asked = 0;
      const cancelled = (err: unknown) => err instanceof Error && err.name === "Canceled" && err.message === "Canceled";
      assert.throws(() => tokensMiddleware.provideDocumentSemanticTokens(doc(n), token, () => (asked++, undefined)), cancelled);
      assert.throws(
        () => tokensMiddleware.provideDocumentSemanticTokensEdits(doc(n), "7", token, () => (asked++, undefined)),
        cancelled,
      );
      assert.equal(asked, 0);
      // no range provider in the middleware: range requests go to the server as they are
      assert.equal("provideDocumentRangeSemanticTokens" in tokensMiddleware, false);
    }
  });

  it("keeps each open document's first choice when it grows or shrinks past the limit", () => {
    const small = { lineCount: 600 };
    const large = { lineCount: VIEWPORT_TOKENS_LINES + 1 };
    const next = () => "answer" as never;
    assert.equal(tokensMiddleware.provideDocumentSemanticTokens(small as never, token, next), "answer");
    assert.throws(() => tokensMiddleware.provideDocumentSemanticTokens(large as never, token, next));
    small.lineCount = 100_000; // a paste: VS Code holds a whole answer it takes as complete
    large.lineCount = 600;
    assert.equal(tokensMiddleware.provideDocumentSemanticTokensEdits(small as never, "1", token, next), "answer");
    assert.throws(() => tokensMiddleware.provideDocumentSemanticTokens(large as never, token, next));
    // the same file opened again (a new document object) is decided afresh
    assert.equal(tokensMiddleware.provideDocumentSemanticTokens({ lineCount: 600 } as never, token, next), "answer");
  });
});
