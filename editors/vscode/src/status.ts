// Text and tooltip of the corpus-score status item.  Pure logic.

export interface MetricRecord {
  metric?: string;
  signature?: string;
  corpus?: { score?: number | null; [k: string]: unknown } | null;
  delta?: number | null;
  /** The corpus score's bootstrap 95% interval (half-width ``ci``). */
  confidence?: { score?: number; mean?: number; ci?: number } | null;
  /** The paired bootstrap test of the current text against the draft. */
  paired?: {
    delta?: number;
    resamples?: number;
    baseline?: { score?: number };
    system?: { score?: number; p_value?: number };
  } | null;
}

/** Post-editing effort against the draft (HTER). */
export interface EffortRecord {
  score?: number | null;
  lines?: number;
  linesEdited?: number;
  num_edits?: number;
  /** A segment file: the segments with a draft and a target, those that differ from their draft. */
  segments?: number;
  segmentsEdited?: number;
}

export interface CorpusScoreResult {
  signature?: string;
  /** Per metric ("bleu", "chrf"): name, signature, corpus score, delta. */
  metrics?: Record<string, MetricRecord>;
  /** Lines carrying at least one finding. */
  flagged?: number;
  /** Findings (diagnostics) in all; a line can carry several. */
  problems?: number;
  /** Of them, the ones Problems lists (errors, warnings, information: not hints). */
  listed?: number;
  /** Per code: count, lines, severity. */
  byCode?: CodeCount[];
  /** Findings hidden by .bleu-ls/ignore.json, and lines hidden as reviewed. */
  ignored?: number;
  reviewed?: number;
  corpus?: { score?: number | null; name?: string; error?: string; [k: string]: unknown } | null;
  delta?: number | null;
  lines?: unknown;
  effort?: EffortRecord | null;
  draft?: { origin?: string | null; path?: string | null; problem?: string | null } | null;
  [k: string]: unknown;
}

export interface StatusView {
  text: string;
  tooltip: string;
}

function metricName(r: CorpusScoreResult): string {
  if (r.corpus && typeof r.corpus.name === "string" && r.corpus.name) {
    return r.corpus.name;
  }
  const first = r.metrics ? Object.values(r.metrics)[0] : undefined;
  if (first && typeof first.metric === "string" && first.metric) {
    return first.metric;
  }
  const sig = typeof r.signature === "string" ? r.signature : "";
  const m = /^(BLEU|chrF[0-9+]*)/i.exec(sig.replace(/^nrefs.*$/, ""));
  if (m) {
    return m[1];
  }
  if (/chrf/i.test(sig) && !/bleu/i.test(sig)) {
    return "chrF";
  }
  return "BLEU";
}

/**
 * A signed change with a real minus sign and enough digits not to read as
 * zero: two decimals, more (up to six) for a change smaller than 0.005.
 */
export function formatDelta(delta: number): string {
  const sign = delta > 0 ? "+" : delta < 0 ? "\u2212" : "\u00b1";
  const a = Math.abs(delta);
  let digits = 2;
  while (digits < 6 && a > 0 && a < 0.5 * 10 ** -digits) {
    digits++;
  }
  return `${sign}${a.toFixed(digits)}`;
}

/** VS Code lists at most this many problems of one file in the Problems panel. */
export const PROBLEMS_SHOWN = 1000;

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** One finding code: how many, on how many lines, with which severity (bleuLs/corpusScore ``byCode``). */
export interface CodeCount {
  code?: string;
  count?: number;
  lines?: number;
  severity?: string;
}

function codeList(entries: CodeCount[]): string {
  return entries.map((c) => `${c.code ?? "?"} ${count(c.count ?? 0)}`).join(", ");
}

/**
 * "5 flagged lines" and what Problems lists of their findings, in words:
 * "In Problems: 28 (adequacy 15, outlier 13)", "In the text only: low-score 96
 * (hints: Problems does not list them; the hover of a line says them)".
 * Every number is the server's count of the diagnostics it sent.
 */
export function describeFlags(flagged?: unknown, problems?: unknown, listed?: unknown, byCode?: unknown): string[] {
  if (typeof flagged !== "number") {
    return [];
  }
  const out = [`${count(flagged)} flagged ${flagged === 1 ? "line" : "lines"}`];
  const codes = Array.isArray(byCode) ? (byCode as CodeCount[]).filter((c) => c && typeof c === "object") : [];
  if (typeof listed === "number" && codes.length) {
    const inProblems = codes.filter((c) => c.severity !== "hint");
    const textOnly = codes.filter((c) => c.severity === "hint");
    let line = `In Problems: ${count(listed)}`;
    if (inProblems.length) {
      line += ` (${codeList(inProblems)})`;
    }
    if (listed > PROBLEMS_SHOWN) {
      line += `, first ${count(PROBLEMS_SHOWN)} listed; bleu-ls: Next Flagged Line walks them all`;
    }
    out.push(line);
    if (textOnly.length) {
      out.push(`In the text only: ${codeList(textOnly)} (hints: Problems does not list them; the hover of a line says them)`);
    }
    return out;
  }
  if (typeof problems === "number" && problems !== flagged) {
    out[0] += ` (${count(problems)} ${problems === 1 ? "problem" : "problems"})`;
  }
  if (typeof problems === "number" && problems > PROBLEMS_SHOWN) {
    out[0] += `, first ${count(PROBLEMS_SHOWN)} in Problems; bleu-ls: Next Flagged Line walks them all`;
  }
  return out;
}

/** "Hidden: 3 ignored, 1 reviewed line" (what .bleu-ls/ignore.json hides), or nothing. */
export function describeHidden(ignored?: unknown, reviewed?: unknown): string | undefined {
  const parts: string[] = [];
  if (typeof ignored === "number" && ignored > 0) {
    parts.push(`${count(ignored)} ignored`);
  }
  if (typeof reviewed === "number" && reviewed > 0) {
    parts.push(`${count(reviewed)} reviewed ${reviewed === 1 ? "line" : "lines"}`);
  }
  return parts.length ? `Hidden: ${parts.join(", ")}` : undefined;
}

function describeLines(lines: unknown, flags: string[]): string | undefined {
  if (typeof lines === "number") {
    return flags.length ? `${count(lines)} paired, ${flags[0]}` : `${count(lines)} paired`;
  }
  if (lines && typeof lines === "object") {
    const parts = Object.entries(lines as Record<string, unknown>)
      .filter(([, v]) => typeof v === "number" || typeof v === "string")
      .map(([k, v]) => `${k}: ${v}`);
    return parts.length ? parts.join(", ") : undefined;
  }
  return undefined;
}

/**
 * Status text ("BLEU 27.31 (+0.42)") and a plain-text tooltip with the
 * signature and the change since the document was opened.  `openedAt` is the
 * first score seen for the document, used when the server sends no delta.
 */
function isNum(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/** "HTER 18.4 · 112 lines edited" and its tooltip line, or nothing without a draft. */
export function describeEffort(r: CorpusScoreResult): { text: string; tip: string[]; edited: number } | undefined {
  const e = r.effort;
  const tip: string[] = [];
  if (r.draft && typeof r.draft.problem === "string" && r.draft.problem) {
    tip.push(`Draft: ${r.draft.problem}`);
  }
  if (!e || !isNum(e.score)) {
    return tip.length ? { text: "", tip, edited: 0 } : undefined;
  }
  const edited = isNum(e.linesEdited) ? e.linesEdited : 0;
  const text = `HTER ${e.score.toFixed(1)} \u00b7 ${count(edited)} ${edited === 1 ? "line" : "lines"} edited`;
  const of = isNum(e.lines) ? ` of ${count(e.lines)}` : "";
  tip.unshift(`HTER vs draft: ${e.score.toFixed(2)} (${count(edited)}${of} lines edited)`);
  return { text, tip, edited };
}

/** The paired test and interval of one metric record, as tooltip lines. */
function describeTests(name: string, m: MetricRecord | undefined): string[] {
  const out: string[] = [];
  if (m?.confidence && isNum(m.confidence.ci)) {
    out.push(`${name} 95% interval: \u00b1${m.confidence.ci.toFixed(2)} (bootstrap mean ${isNum(m.confidence.mean) ? m.confidence.mean.toFixed(2) : "?"})`);
  }
  const p = m?.paired;
  if (p && isNum(p.delta) && p.system && isNum(p.system.p_value)) {
    out.push(`${name} vs draft: ${formatDelta(p.delta)}, p = ${p.system.p_value.toFixed(4)} (paired bootstrap, ${p.resamples ?? 1000} resamples)`);
  }
  return out;
}

/**
 * The status of a segment file (PO, XLIFF, TMX, subtitles): the server answers
 * with the corpus score of each metric by its key (`bleu`, `chrf`) beside the
 * counts of segments, paired rows and segments without a partner.
 */
function formatSegmentStatus(r: CorpusScoreResult, openedAt?: number): StatusView {
  const names: Record<string, string> = { bleu: "BLEU", chrf: "chrF", ter: "TER" };
  const scores = Object.keys(names)
    .filter((k) => typeof r[k] === "number" && Number.isFinite(r[k] as number))
    .map((k) => ({ name: names[k], score: r[k] as number }));
  const n = (k: string) => (typeof r[k] === "number" ? (r[k] as number) : 0);
  const tip: string[] = [];
  let text: string;
  if (scores.length) {
    const first = scores[0];
    text = scores.map((m) => `${m.name} ${m.score.toFixed(2)}`).join(" \u00b7 ");
    const delta = typeof openedAt === "number" ? first.score - openedAt : undefined;
    if (delta !== undefined && Math.abs(delta) >= 0.005) {
      text = text.replace(`${first.name} ${first.score.toFixed(2)}`, `${first.name} ${first.score.toFixed(2)} (${formatDelta(delta)})`);
    }
    tip.push(...scores.map((m) => `Corpus ${m.name}: ${m.score.toFixed(2)}`));
    if (delta !== undefined && Math.abs(delta) >= 0.005) {
      tip.push(`\u0394 since open: ${formatDelta(delta)}`);
    }
  } else {
    text = "BLEU \u2013";
    tip.push("bleu-ls: no segment is paired with the reference's yet.");
  }
  tip.push(`Segments: ${n("segments")}, ${n("rows")} scored rows`);
  const unpaired = [
    n("unpairedHypothesis") ? `${n("unpairedHypothesis")} in this file` : "",
    n("unpairedReference") ? `${n("unpairedReference")} in the reference` : "",
  ].filter(Boolean);
  if (unpaired.length) {
    tip.push(`Without a partner: ${unpaired.join(", ")}`);
  }
  if (n("problems")) {
    tip.push(`Problems: ${n("problems")}`);
  }
  const effort = describeSegmentEffort(r, scores.length > 0);
  if (effort && effort.text) {
    text = scores.length ? `${text} \u00b7 ${effort.text}` : effort.text;
    tip.push(...effort.tip);
  }
  return { text, tooltip: tip.join("\n") };
}

/**
 * A segment file's effort against its drafts: "HTER 0.8 · 3 segments edited" (once a target
 * differs from its draft; without a reference whenever a segment has one) and its tooltip lines,
 * with the paired test of each metric (`tests`).
 */
function describeSegmentEffort(r: CorpusScoreResult, scored: boolean): { text: string; tip: string[] } | undefined {
  const e = r.effort;
  if (!e || !isNum(e.score)) {
    return undefined;
  }
  const edited = isNum(e.segmentsEdited) ? e.segmentsEdited : 0;
  const tip = [`HTER vs draft: ${e.score.toFixed(2)} (${count(edited)} of ${count(isNum(e.segments) ? e.segments : 0)} segments with a draft edited)`];
  const tests = (r.tests && typeof r.tests === "object" ? r.tests : {}) as Record<string, MetricRecord>;
  const names: Record<string, string> = { bleu: "BLEU", chrf: "chrF", ter: "TER" };
  for (const [key, m] of Object.entries(tests)) {
    tip.push(...describeTests(names[key] ?? key, m));
  }
  if (!edited && scored) {
    return { text: "", tip: [] };  // beside the scores, the effort shows once a target was edited
  }
  return { text: `HTER ${e.score.toFixed(1)} \u00b7 ${count(edited)} ${edited === 1 ? "segment" : "segments"} edited`, tip };
}

/** The score a status change is measured on: the corpus score, or a segment file's first metric. */
export function headlineScore(r: CorpusScoreResult | null | undefined): number | undefined {
  if (!r) {
    return undefined;
  }
  if (r.corpus) {
    return typeof r.corpus.score === "number" ? r.corpus.score : undefined;
  }
  if (typeof r.segments === "number") {
    const k = ["bleu", "chrf", "ter"].find((key) => typeof r[key] === "number" && Number.isFinite(r[key] as number));
    return k ? (r[k] as number) : undefined;
  }
  return undefined;
}

export function formatStatus(r: CorpusScoreResult | null | undefined, openedAt?: number): StatusView {
  if (r && !r.corpus && typeof r.segments === "number") {
    return formatSegmentStatus(r, openedAt);
  }
  const effort = r ? describeEffort(r) : undefined;
  if (r && !r.corpus && effort && effort.text) {
    return { text: effort.text, tooltip: ["No reference: post-editing effort only.", ...effort.tip].join("\n") };
  }
  if (!r || !r.corpus) {
    return { text: "BLEU \u2013", tooltip: "bleu-ls: this file is not paired with a reference." };
  }
  const name = metricName(r);
  const score = r.corpus.score;
  if (typeof score !== "number" || !Number.isFinite(score)) {
    const why = typeof r.corpus.error === "string" ? r.corpus.error : "no score yet";
    return { text: `${name} \u2013`, tooltip: `bleu-ls: ${why}` };
  }
  let delta: number | undefined;
  if (typeof r.delta === "number" && Number.isFinite(r.delta)) {
    delta = r.delta;
  } else if (typeof openedAt === "number") {
    delta = score - openedAt;
  }
  let text = `${name} ${score.toFixed(2)}`;
  // Further metrics (chrF next to BLEU) in the text and the tooltip.
  const others: string[] = [];
  if (r.metrics) {
    for (const m of Object.values(r.metrics).slice(1)) {
      const s = m.corpus?.score;
      if (typeof s === "number" && Number.isFinite(s)) {
        others.push(`${m.metric ?? "chrF"} ${s.toFixed(2)}`);
      }
    }
  }
  if (delta !== undefined && Math.abs(delta) >= 0.005) {
    text += ` (${formatDelta(delta)})`;
  }
  if (others.length) {
    text += ` \u00b7 ${others.join(" \u00b7 ")}`;
  }
  // Beside the scores, the effort shows once a line was edited (like a delta).
  if (effort && effort.text && effort.edited > 0) {
    text += ` \u00b7 ${effort.text}`;
  }
  const tip: string[] = [`Corpus ${name}: ${score.toFixed(2)}`];
  // A change is shown once there is one: a file just opened has none.
  if (delta !== undefined && Math.abs(delta) >= 0.005) {
    tip.push(`\u0394 since open: ${formatDelta(delta)}`);
  }
  for (const o of others) {
    tip.push(`Corpus ${o}`);
  }
  if (r.metrics) {
    for (const m of Object.values(r.metrics)) {
      tip.push(...describeTests(m.metric ?? name, m));
    }
  }
  if (effort) {
    tip.push(...effort.tip);
  }
  const flags = describeFlags(r.flagged, r.problems, r.listed, r.byCode);
  const lines = describeLines(r.lines, flags);
  if (lines) {
    tip.push(`Lines: ${lines}`);
    tip.push(...flags.slice(1));
  }
  const hidden = describeHidden(r.ignored, r.reviewed);
  if (hidden) {
    tip.push(hidden);
  }
  const sigs = r.metrics
    ? Object.values(r.metrics)
        .map((m) => m.signature)
        .filter((x): x is string => typeof x === "string" && x.length > 0)
    : [];
  if (sigs.length === 0 && r.signature) {
    sigs.push(r.signature);
  }
  for (const sig of sigs) {
    tip.push(`Signature: ${sig}`);
  }
  return { text, tooltip: tip.join("\n") };
}
