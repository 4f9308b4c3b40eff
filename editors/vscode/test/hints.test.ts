import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import { hintsMiddleware, unbreakable } from "../src/hints";

describe("hint labels", () => {
  it("have no break opportunity inside (no-break spaces)", () => {
    assert.equal(unbreakable("BLEU 13.3 · chrF 51.0"), "BLEU\u00a013.3\u00a0·\u00a0chrF\u00a051.0");
  });
  it("are glued to the text before them: the padding becomes a leading no-break space", async () => {
    const hints = [
      { label: "BLEU 9.9", paddingLeft: true },
      { label: [{ value: "BLEU 9.9" }, { value: " (Δ +1.2)" }], paddingLeft: true },
      { label: "TER 41.7", paddingLeft: false },
    ];
    const got = await hintsMiddleware.provideInlayHints({} as never, {} as never, {} as never, async () => hints as never);
    assert.deepEqual(got, [
      { label: "\u00a0BLEU\u00a09.9", paddingLeft: false },
      { label: [{ value: "\u00a0BLEU\u00a09.9" }, { value: "\u00a0(Δ\u00a0+1.2)" }], paddingLeft: false },
      { label: "TER\u00a041.7", paddingLeft: false },
    ]);
  });
});
