import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import { diagnosticPullOptions } from "../src/pullOptions";

describe("diagnostics pulls", () => {
  it("are not made after each change or save: the server's refresh asks for them", () => {
    assert.equal(diagnosticPullOptions.onChange, false);
    assert.equal(diagnosticPullOptions.onSave, false);
    assert.equal(diagnosticPullOptions.filter, undefined);
  });
});
