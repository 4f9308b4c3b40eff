import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import { formatDelta, formatStatus, headlineScore } from "../src/status";

describe("formatStatus", () => {
  it("leaves the effort out of the text until a line is edited (the tooltip keeps it)", () => {
    const v = formatStatus({ corpus: { score: 56.31 }, effort: { score: 0, linesEdited: 0, lines: 28 } } as never);
    assert.equal(v.text, "BLEU 56.31");
    assert.match(v.tooltip, /HTER vs draft: 0\.00 \(0 of 28 lines edited\)/);
  });
  const sig = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0";
  it("shows the corpus score with two decimals and the server's delta", () => {
    const v = formatStatus({ signature: sig, corpus: { score: 27.31415 }, delta: 1.5, lines: 120 });
    assert.equal(v.text, "BLEU 27.31 (+1.50)");
    assert.match(v.tooltip, /Signature: nrefs:1\|case:mixed/);
    assert.match(v.tooltip, /\u0394 since open: \+1\.50/);
    assert.match(v.tooltip, /120 paired/);
  });
  it("reads the per-metric records of the server (name, chrF beside BLEU, flagged count)", () => {
    const v = formatStatus({
      signature: sig,
      corpus: { score: 30 },
      delta: -0.25,
      lines: 28,
      flagged: 5,
      metrics: {
        bleu: { metric: "BLEU", signature: sig, corpus: { score: 30 }, delta: -0.25 },
        chrf: { metric: "chrF2", signature: "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0", corpus: { score: 61.234 } },
      },
    });
    assert.equal(v.text, "BLEU 30.00 (\u22120.25) \u00b7 chrF2 61.23");
    assert.match(v.tooltip, /28 paired, 5 flagged lines/);
    assert.match(v.tooltip, /Signature: nrefs:1\|case:mixed\|eff:yes\|nc:6/);
  });
  it("computes the delta from the first score when the server sends none", () => {
    const v = formatStatus({ signature: sig, corpus: { score: 20 } }, 22.5);
    assert.equal(v.text, "BLEU 20.00 (\u22122.50)");
  });
  it("shows no delta before there is one, in the text or the tooltip", () => {
    const v = formatStatus({ corpus: { score: 20 }, delta: 0 });
    assert.equal(v.text, "BLEU 20.00");
    assert.doesNotMatch(v.tooltip, /\u0394/);
  });
  it("says what the ignore file hides, and nothing when it hides nothing", () => {
    const v = formatStatus({ corpus: { score: 20 }, lines: 529, flagged: 90, problems: 100, ignored: 3, reviewed: 1 });
    assert.match(v.tooltip, /Hidden: 3 ignored, 1 reviewed line$/m);
    const w = formatStatus({ corpus: { score: 20 }, lines: 529, flagged: 90, ignored: 0, reviewed: 0 });
    assert.doesNotMatch(w.tooltip, /Hidden/);
  });
  it("says how many lines are flagged and how many problems they carry", () => {
    const v = formatStatus({ corpus: { score: 20 }, lines: 529, flagged: 97, problems: 113 });
    assert.match(v.tooltip, /529 paired, 97 flagged lines \(113 problems\)/);
  });
  it("says that Problems lists the first 1,000 of a larger number", () => {
    const v = formatStatus({ corpus: { score: 20 }, lines: 100000, flagged: 1400, problems: 1532 });
    assert.match(v.tooltip, /1,400 flagged lines \(1,532 problems\), first 1,000 in Problems/);
  });
  it("uses the metric name the server gives", () => {
    assert.equal(formatStatus({ corpus: { score: 51.2, name: "chrF2++" } }).text, "chrF2++ 51.20");
  });
  it("says why there is no score", () => {
    assert.equal(formatStatus(null).text, "BLEU \u2013");
    assert.match(formatStatus(null).tooltip, /not paired/);
    const v = formatStatus({ corpus: { score: null, error: "the reference is empty" } });
    assert.equal(v.text, "BLEU \u2013");
    assert.match(v.tooltip, /reference is empty/);
  });
  it("formats deltas with a real minus sign and enough digits not to read as zero", () => {
    assert.equal(formatDelta(-0.004), "\u22120.004");
    assert.equal(formatDelta(-0.003), "\u22120.003");
    assert.equal(formatDelta(0.00002), "+0.00002");
    assert.equal(formatDelta(-0.25), "\u22120.25");
    assert.equal(formatDelta(3), "+3.00");
    assert.equal(formatDelta(0), "\u00b10.00");
  });
  it("says in words which findings Problems lists and which show in the text only", () => {
    const v = formatStatus({
      corpus: { score: 20 }, lines: 529, flagged: 106, problems: 126, listed: 28,
      byCode: [
        { code: "low-score", count: 96, lines: 96, severity: "hint" },
        { code: "outlier", count: 13, lines: 13, severity: "information" },
        { code: "length-ratio", count: 2, lines: 2, severity: "hint" },
        { code: "adequacy", count: 15, lines: 15, severity: "information" },
      ],
    });
    assert.match(v.tooltip, /^Lines: 529 paired, 106 flagged lines$/m);
    assert.match(v.tooltip, /^In Problems: 28 \(outlier 13, adequacy 15\)$/m);
    assert.match(v.tooltip, /^In the text only: low-score 96, length-ratio 2 \(hints: Problems does not list them/m);
  });
  it("adds HTER against the draft and the paired test to the text and tooltip", () => {
    const v = formatStatus({
      corpus: { score: 27.31 },
      lines: 300,
      metrics: {
        bleu: {
          metric: "BLEU",
          corpus: { score: 27.31 },
          confidence: { score: 27.31, mean: 27.2, ci: 1.5 },
          paired: { delta: 0.84, resamples: 1000, system: { score: 27.31, p_value: 0.03 } },
        },
      },
      effort: { score: 18.44, lines: 300, linesEdited: 112 },
    });
    assert.equal(v.text, "BLEU 27.31 \u00b7 HTER 18.4 \u00b7 112 lines edited");
    assert.match(v.tooltip, /BLEU vs draft: \+0\.84, p = 0\.0300 \(paired bootstrap, 1000 resamples\)/);
    assert.match(v.tooltip, /BLEU 95% interval: \u00b11\.50/);
    assert.match(v.tooltip, /HTER vs draft: 18\.44 \(112 of 300 lines edited\)/);
  });
  it("shows the effort alone for a draft without a reference", () => {
    const v = formatStatus({ effort: { score: 5, lines: 10, linesEdited: 1 }, metrics: {} });
    assert.equal(v.text, "HTER 5.0 \u00b7 1 line edited");
    assert.match(v.tooltip, /post-editing effort only/);
  });
});

describe("formatStatus of a segment file", () => {
  // the server's answer for a PO / XLIFF / subtitle file: metrics by key beside the segment counts
  const po = { segments: 3, rows: 2, unpairedHypothesis: 1, unpairedReference: 0, problems: 2, bleu: 77.65453555044465 };
  it("shows the corpus score, not 'not paired'", () => {
    const v = formatStatus(po as never);
    assert.equal(v.text, "BLEU 77.65");
    assert.match(v.tooltip, /^Corpus BLEU: 77\.65$/m);
    assert.match(v.tooltip, /^Segments: 3, 2 scored rows$/m);
    assert.match(v.tooltip, /^Without a partner: 1 in this file$/m);
    assert.match(v.tooltip, /^Problems: 2$/m);
  });
  it("shows chrF beside BLEU and the change since the file was opened", () => {
    const v = formatStatus({ ...po, chrf: 80.5 } as never, 70);
    assert.equal(v.text, "BLEU 77.65 (+7.65) \u00b7 chrF 80.50");
    assert.equal(headlineScore({ ...po, chrf: 80.5 } as never), po.bleu);
  });
  it("says when no segment is paired yet", () => {
    const v = formatStatus({ segments: 4, rows: 0, unpairedHypothesis: 4, unpairedReference: 4, problems: 0 } as never);
    assert.equal(v.text, "BLEU \u2013");
    assert.match(v.tooltip, /no segment is paired/);
    assert.match(v.tooltip, /Without a partner: 4 in this file, 4 in the reference/);
  });
  it("shows the HTER against the drafts and the paired test once a target is edited", () => {
    const effort = { score: 0.78125, segments: 31, segmentsEdited: 3 };
    const tests = { bleu: { confidence: { mean: 83.8, ci: 1.2 }, paired: { delta: 0.06, resamples: 1000, system: { p_value: 0.1638 } } } };
    const v = formatStatus({ ...po, effort, tests } as never);
    assert.equal(v.text, "BLEU 77.65 \u00b7 HTER 0.8 \u00b7 3 segments edited");
    assert.match(v.tooltip, /^HTER vs draft: 0\.78 \(3 of 31 segments with a draft edited\)$/m);
    assert.match(v.tooltip, /^BLEU vs draft: \+0\.06, p = 0\.1638 \(paired bootstrap, 1000 resamples\)$/m);
    assert.equal(formatStatus({ ...po, effort: { ...effort, segmentsEdited: 0 } } as never).text, "BLEU 77.65");
    const alone = { segments: 4, rows: 0, unpairedHypothesis: 4, unpairedReference: 0, problems: 0, effort: { score: 0, segments: 2, segmentsEdited: 0 } };
    assert.equal(formatStatus(alone as never).text, "HTER 0.0 \u00b7 0 segments edited");
  });
  it("keeps a line file's headline score", () => {
    assert.equal(headlineScore({ corpus: { score: 12.5 } } as never), 12.5);
    assert.equal(headlineScore({ corpus: { score: null } } as never), undefined);
    assert.equal(headlineScore(null), undefined);
  });
});
