import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import packageJson = require("../package.json");
import {
  documentSelector,
  L10N_PATTERNS,
  EDITOR_DEFAULTS,
  explicitSettings,
  explicitValue,
  ruleGlob,
  serverKeys,
  subSection,
  withoutClientKeys,
} from "../src/settings";

describe("serverKeys", () => {
  it("lists every contributed bleuLs setting except the client-only ones", () => {
    const keys = serverKeys(packageJson);
    assert.ok(keys.includes("bleu.tokenize"));
    assert.ok(keys.includes("diagnostics.lowScore.bleuThreshold"));
    assert.ok(keys.includes("pairs"));
    assert.ok(!keys.some((k) => k.startsWith("server.") || k.startsWith("trace.")));
    const all = Object.keys(packageJson.contributes.configuration.properties);
    assert.equal(keys.length, all.length - 4);
  });
});

describe("explicitSettings", () => {
  it("sends only explicit values, nested as the server's camelCase dict", () => {
    const values: Record<string, Record<string, unknown>> = {
      "bleu.tokenize": { defaultValue: "13a", globalValue: "intl" },
      "bleu.lowercase": { defaultValue: false },
      "chrf.enabled": { defaultValue: false, workspaceValue: true },
      "diagnostics.lowScore.bleuThreshold": { defaultValue: 10, globalValue: 5, workspaceFolderValue: 20 },
      pairs: { defaultValue: [], workspaceValue: [{ hypothesis: "out/*.de", references: ["ref/{1}.de"] }] },
    };
    const got = explicitSettings(
      ["bleu.tokenize", "bleu.lowercase", "chrf.enabled", "diagnostics.lowScore.bleuThreshold", "pairs"],
      (k) => values[k],
    );
    assert.deepEqual(got, {
      bleu: { tokenize: "intl" },
      chrf: { enabled: true },
      diagnostics: { lowScore: { bleuThreshold: 20 } },
      pairs: [{ hypothesis: "out/*.de", references: ["ref/{1}.de"] }],
    });
  });

  it("sends an editor default (maxProblems) even when left at VS Code's default", () => {
    const values: Record<string, Record<string, unknown>> = {
      maxProblems: { defaultValue: 1000 },
      maxLineBytes: { defaultValue: 1000000 },
    };
    assert.deepEqual(explicitSettings(["maxProblems", "maxLineBytes"], (k) => values[k]), { maxProblems: 1000 });
    values.maxProblems.workspaceValue = 0;
    assert.deepEqual(explicitSettings(["maxProblems", "maxLineBytes"], (k) => values[k]), { maxProblems: 0 });
    assert.ok(EDITOR_DEFAULTS.every((k) => serverKeys(packageJson).includes(k)));
  });

  it("keeps an explicit false / null rather than dropping it", () => {
    assert.equal(explicitValue({ defaultValue: true, globalValue: false }), false);
    assert.equal(explicitValue({ defaultValue: "exp", workspaceValue: null }), null);
    assert.equal(explicitValue({ defaultValue: 3 }), undefined);
    assert.equal(explicitValue({ globalValue: 1, globalLanguageValue: 2 }), 2);
  });
});

describe("subSection and withoutClientKeys", () => {
  const s = { bleu: { tokenize: "zh" }, hints: {} };
  it("answers a whole-section and a sub-section request", () => {
    assert.deepEqual(subSection(s, "bleuLs"), s);
    assert.deepEqual(subSection(s, "bleuLs.bleu"), { tokenize: "zh" });
    assert.equal(subSection(s, "bleuLs.chrf.beta"), null);
    assert.equal(subSection(s, "editor"), undefined);
  });
  it("drops the client-only keys", () => {
    assert.deepEqual(withoutClientKeys({ server: { path: "x" }, trace: { server: "off" }, bleu: {} }), { bleu: {} });
  });
});

describe("documentSelector", () => {
  it("covers the convention languages and the files named by pairing rules", () => {
    const sel = documentSelector([
      { hypothesis: "out/*.de", references: ["ref/{1}.de", "ref2/{stem}.de"], source: "src/{1}.en" },
      { hypothesis: "/abs/sys.txt", references: ["/abs/ref.txt"] },
      "junk",
    ]);
    assert.deepEqual(sel.slice(0, 3).map((f) => f.language), ["mt-hypothesis", "mt-reference", "mt-source"]);
    assert.deepEqual(
      sel.slice(3, 5).map((f) => f.pattern),
      ["**/*.{po,pot,xlf,xliff,sdlxliff,mxliff,tmx,srt,vtt}", "**/*.{PO,POT,XLF,XLIFF,SDLXLIFF,MXLIFF,TMX,SRT,VTT}"],
    );
    assert.ok(sel.slice(3, 5).every((f) => f.language === undefined), "segment files are taken by name, any language");
    assert.deepEqual(sel.slice(5, 9).map((f) => f.pattern), L10N_PATTERNS);
    assert.deepEqual(
      sel.slice(9).map((f) => f.pattern),
      ["**/out/*.de", "**/ref/*.de", "**/ref2/*.de", "**/src/*.en", "/abs/sys.txt", "/abs/ref.txt"],
    );
    assert.ok(sel.every((f) => f.scheme === "file"));
  });
  it("survives a missing or malformed pairs setting", () => {
    assert.equal(documentSelector(undefined).length, 9);
    assert.equal(documentSelector({ hypothesis: "x" }).length, 9);
  });
  it("turns placeholders into wildcards", () => {
    assert.equal(ruleGlob("./a/{name}.ref"), "**/a/*.ref");
    assert.equal(ruleGlob("C:\\data\\{stem}.ref"), "C:/data/*.ref");
  });
});

describe("package.json", () => {
  it("declares a default and a description for every setting", () => {
    const props = packageJson.contributes.configuration.properties as Record<string, Record<string, unknown>>;
    for (const [key, prop] of Object.entries(props)) {
      assert.ok("default" in prop, `${key} has no default`);
      const desc = (prop.markdownDescription ?? prop.description) as string | undefined;
      assert.ok(desc && desc.length > 10, `${key} has no description`);
    }
  });
  it("wraps long segment lines by default in the three MT languages", () => {
    const defaults = (packageJson.contributes as Record<string, unknown>).configurationDefaults as Record<string, Record<string, unknown>>;
    for (const lang of ["mt-hypothesis", "mt-reference", "mt-source"]) {
      assert.equal(defaults[`[${lang}]`]["editor.wordWrap"], "on", lang);
    }
  });
  it("breaks MT rows at spaces only, so a score hint wraps with the line's last word", () => {
    const defaults = (packageJson.contributes as Record<string, unknown>).configurationDefaults as Record<string, Record<string, unknown>>;
    for (const lang of ["mt-hypothesis", "mt-reference", "mt-source"]) {
      const after = defaults[`[${lang}]`]["editor.wordWrapBreakAfterCharacters"] as string;
      const before = defaults[`[${lang}]`]["editor.wordWrapBreakBeforeCharacters"] as string;
      assert.ok(after.includes(" ") && after.includes("\t"), lang);
      // VS Code's "simple" wrapping may break after any of these, e.g. between a final "." and the hint
      for (const c of [".", ",", ";", "?", ")", "]", "}", "/", "&", "|", "\u201d", "\u00b0"]) assert.ok(!after.includes(c), `${lang}: ${c}`);
      for (const c of ["\u201c", "\u2018", "+"]) assert.ok(!before.includes(c), `${lang}: ${c}`);
      assert.ok(after.includes("\u3002") && before.includes("\u300c"), lang); // the CJK rules stay
    }
  });
  it("binds Next/Previous Flagged in segment files too (the server walks segments that need review)", () => {
    const bindings = (packageJson.contributes as Record<string, unknown>).keybindings as { command: string; when: string }[];
    for (const command of ["bleu-ls.nextFlagged", "bleu-ls.previousFlagged"]) {
      const when = bindings.find((b) => b.command === command)!.when;
      assert.match(when, /editorLangId == mt-hypothesis/);
      const m = /resourceExtname =~ \/(.+)\/i\)/.exec(when);
      assert.ok(m, when);
      const re = new RegExp(m![1], "i");
      for (const ext of [".po", ".xlf", ".XLIFF", ".srt", ".vtt", ".tmx"]) assert.ok(re.test(ext), ext);
      for (const ext of [".txt", ".pox", ".json"]) assert.ok(!re.test(ext), ext);
    }
  });
  it("contributes a palette entry for every command the extension registers", async () => {
    const ids = packageJson.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(ids, [
      "bleu-ls.addToDictionary",
      "bleu-ls.addToGlossary",
      "bleu-ls.compareWith",
      "bleu-ls.exportScores",
      "bleu-ls.forgetDraft",
      "bleu-ls.nextFlagged",
      "bleu-ls.pairWith",
      "bleu-ls.previousFlagged",
      "bleu-ls.reinstallServer",
      "bleu-ls.restartServer",
      "bleu-ls.setDraft",
      "bleu-ls.showReport",
      "bleu-ls.statusMenu",
      "bleu-ls.stopComparing",
      "bleu-ls.toggleChangedWords",
      "bleu-ls.toggleHints",
      "bleu-ls.toggleUnmatchedWords",
    ]);
  });
  it("declares the server's token types and colours them by default in hypothesis files", () => {
    const c = packageJson.contributes as Record<string, any>;
    assert.deepEqual(c.semanticTokenTypes.map((t: { id: string }) => t.id), ["bleuChanged", "bleuUnmatched"]);
    assert.deepEqual(c.semanticTokenModifiers.map((t: { id: string }) => t.id), ["unmatched"]);
    const rules = c.configurationDefaults["editor.semanticTokenColorCustomizations"].rules;
    assert.deepEqual(Object.keys(rules).sort(), ["bleuChanged", "bleuChanged.unmatched", "bleuUnmatched"]);
    assert.equal(c.configurationDefaults["[mt-hypothesis]"]["editor.semanticHighlighting.enabled"], true);
  });
});
