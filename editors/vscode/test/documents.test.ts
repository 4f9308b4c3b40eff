import assert = require("node:assert/strict");
import { describe, it } from "node:test";

import packageJson = require("../package.json");
import { DocumentLike, isBleuDocument, isSegmentFile } from "../src/documents";
import { documentSelector, SEGMENT_EXTENSIONS } from "../src/settings";

const doc = (path: string, languageId: string, scheme = "file"): DocumentLike => ({ languageId, uri: { scheme, path } });

/** VS Code's glob for the selector's patterns (`**` / `*` / `{a,b}`), enough to check the helper against it. */
function globMatches(glob: string, path: string): boolean {
  let rx = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith("**/", i)) {
      rx += "(?:.*/)?";
      i += 2;
    } else if (c === "*") {
      rx += "[^/]*";
    } else if (c === "{") {
      const end = glob.indexOf("}", i);
      rx += "(?:" + glob.slice(i + 1, end).split(",").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + ")";
      i = end;
    } else {
      rx += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp("^" + rx + "$").test(path);
}

describe("isBleuDocument", () => {
  it("takes segment files by name whatever language another extension gave them", () => {
    for (const [path, lang] of [
      ["/w/app.po", "po"],
      ["/w/app.pot", "plaintext"],
      ["/w/messages.fr.xlf", "xml"],
      ["/w/a.xliff", "xml"],
      ["/w/a.sdlxliff", "xml"],
      ["/w/a.mxliff", "xml"],
      ["/w/memory.tmx", "xml"],
      ["/w/film.hyp.srt", "srt"],
      ["/w/film.vtt", "vtt"],
      ["/w/FILM.SRT", "subtitles"],
    ]) {
      assert.ok(isBleuDocument(doc(path, lang)), path);
    }
  });
  it("leaves other files of those languages alone", () => {
    for (const [path, lang] of [
      ["/w/pom.xml", "xml"],
      ["/w/icon.svg", "xml"],
      ["/w/po", "plaintext"],
      ["/w/notes.po.txt", "plaintext"],
      ["/w/a.srt.bak", "plaintext"],
      ["/w/a.Srt", "srt"],
      ["/w/README.md", "markdown"],
    ]) {
      assert.equal(isBleuDocument(doc(path, lang)), false, path);
    }
  });
  it("takes the extension's own languages, and asks the selector about the rest", () => {
    assert.ok(isBleuDocument(doc("/w/a.hyp", "mt-hypothesis")));
    assert.ok(isBleuDocument(doc("/w/a.ref2", "mt-reference")));
    assert.ok(isBleuDocument(doc("/w/out/a.de", "plaintext"), (d) => d.uri.path.startsWith("/w/out/")));
    assert.equal(isBleuDocument(doc("/w/b.de", "plaintext"), (d) => d.uri.path.startsWith("/w/out/")), false);
  });
  it("never an untitled buffer, another scheme, or no document", () => {
    assert.equal(isBleuDocument(doc("Untitled-1", "po", "untitled")), false);
    assert.equal(isBleuDocument(doc("/w/app.po", "po", "git")), false);
    assert.equal(isBleuDocument(doc("/w/a.hyp", "mt-hypothesis", "vscode-notebook-cell")), false);
    assert.equal(isBleuDocument(undefined), false);
  });
  it("agrees with the language client's selector on every segment extension", () => {
    const patterns = documentSelector(undefined)
      .filter((f) => f.pattern)
      .map((f) => f.pattern as string);
    for (const ext of SEGMENT_EXTENSIONS) {
      for (const name of [`/w/x.${ext}`, `/w/sub/dir/x.y.${ext.toUpperCase()}`, `/w/x.${ext}.orig`, `/w/x.${ext[0].toUpperCase()}${ext.slice(1)}`]) {
        assert.equal(patterns.some((p) => globMatches(p, name)), isSegmentFile(name), name);
      }
    }
    assert.equal(isSegmentFile("/w/x.ref"), false);
  });
  it("sends localization files by their path convention, never every JSON file", () => {
    const patterns = documentSelector(undefined)
      .filter((f) => f.pattern)
      .map((f) => f.pattern as string);
    const sent = (name: string) => patterns.some((p) => globMatches(p, name));
    for (const name of ["/w/public/locales/de/translation.json", "/w/src/i18n/fr.json", "/w/locales/de-DE.json",
      "/w/lib/l10n/app_de.arb", "/w/ext/_locales/de/messages.json", "/w/assets/i18n/pt-BR.json"]) {
      assert.ok(sent(name), name);
    }
    for (const name of ["/w/package.json", "/w/tsconfig.json", "/w/data/de.json", "/w/.vscode/settings.json",
      "/w/node_modules/x/package.json", "/w/composer.json"]) {
      assert.equal(sent(name), false, name);
    }
  });
});

describe("package.json leaves the segment files' languages alone", () => {
  const contributes = packageJson.contributes as unknown as {
    languages: { id: string; extensions?: string[]; filenamePatterns?: string[] }[];
    grammars?: unknown[];
    configurationDefaults: Record<string, unknown>;
    semanticTokenTypes: { id: string }[];
  };
  it("contributes no language, grammar or editor default for them", () => {
    assert.equal(contributes.grammars, undefined);
    for (const lang of contributes.languages) {
      assert.ok(lang.id.startsWith("mt-"), lang.id);
      for (const e of lang.extensions ?? []) {
        assert.equal(SEGMENT_EXTENSIONS.includes(e.slice(1).toLowerCase()), false, e);
      }
    }
    const perLanguage = Object.keys(contributes.configurationDefaults).filter((k) => k.startsWith("["));
    assert.deepEqual(perLanguage.sort(), ["[mt-hypothesis]", "[mt-reference]", "[mt-source]"]);
  });
  it("colours only bleu-ls's own token types", () => {
    const rules = (contributes.configurationDefaults["editor.semanticTokenColorCustomizations"] as {
      rules: Record<string, unknown>;
    }).rules;
    const ours = contributes.semanticTokenTypes.map((t) => t.id);
    for (const selector of Object.keys(rules)) {
      assert.ok(ours.includes(selector.split(".")[0].split(":")[0]), selector);
    }
  });
  it("activates in a workspace holding segment files", () => {
    for (const ext of SEGMENT_EXTENSIONS) {
      assert.ok(packageJson.activationEvents.includes(`workspaceContains:**/*.${ext}`), ext);
    }
  });
  it("activates in a workspace holding localization files, not on any JSON file", () => {
    const events = packageJson.activationEvents as string[];
    for (const e of ["**/locales/*/*.json", "**/i18n/*.json", "**/*.arb", "**/_locales/*/messages.json"]) {
      assert.ok(events.includes(`workspaceContains:${e}`), e);
    }
    assert.equal(events.includes("workspaceContains:**/*.json"), false);
  });
});
