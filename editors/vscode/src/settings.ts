// Settings mapping between VS Code's configuration and the server.  Pure
// logic (no `vscode` import) so that it can be unit-tested with plain Node.

export const SECTION = "bleuLs";

/** Keys under bleuLs that the extension reads itself and never sends. */
export const CLIENT_ONLY = ["server", "trace"];

/**
 * Server settings whose VS Code default (package.json, from gen-config.py's
 * EDITOR_DEFAULTS) differs from the server's own: sent even when left at the
 * default.  maxProblems: VS Code shows at most 1,000 diagnostics per file.
 */
export const EDITOR_DEFAULTS = ["maxProblems"];

export interface InspectResult {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  globalLanguageValue?: unknown;
  workspaceLanguageValue?: unknown;
  workspaceFolderLanguageValue?: unknown;
}

/** Server setting keys (relative to bleuLs) from package.json's contributes.configuration. */
export function serverKeys(packageJson: {
  contributes?: { configuration?: { properties?: Record<string, unknown> } };
}): string[] {
  const props = packageJson.contributes?.configuration?.properties ?? {};
  const prefix = SECTION + ".";
  return Object.keys(props)
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length))
    .filter((k) => !CLIENT_ONLY.includes(k.split(".")[0]));
}

/** The value the user set explicitly (most specific scope wins), or undefined. */
export function explicitValue(info: InspectResult | undefined): unknown {
  if (!info) {
    return undefined;
  }
  const order: (keyof InspectResult)[] = [
    "workspaceFolderLanguageValue",
    "workspaceLanguageValue",
    "globalLanguageValue",
    "workspaceFolderValue",
    "workspaceValue",
    "globalValue",
  ];
  for (const k of order) {
    if (info[k] !== undefined) {
      return info[k];
    }
  }
  return undefined;
}

/**
 * The camelCase settings object the server reads (bleu-ls's Settings.from_dict),
 * holding only what the user set explicitly: values left at their default
 * are not sent, so that bleu-ls.toml and the server's own defaults apply —
 * except the EDITOR_DEFAULTS, sent with VS Code's default.
 */
export function explicitSettings(
  keys: string[],
  inspect: (key: string) => InspectResult | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const info = inspect(key);
    let value = explicitValue(info);
    if (value === undefined && EDITOR_DEFAULTS.includes(key)) {
      value = info?.defaultValue;
    }
    if (value === undefined) {
      continue;
    }
    setPath(out, key.split("."), value);
  }
  return out;
}

/** Strip client-only keys from a whole settings object (e.g. for a sub-section request). */
export function withoutClientKeys(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!CLIENT_ONLY.includes(k)) {
      copy[k] = v;
    }
  }
  return copy;
}

/** Pick a sub-section ("bleu" of "bleuLs.bleu") out of a settings object. */
export function subSection(settings: Record<string, unknown>, section: string): unknown {
  if (section === SECTION) {
    return settings;
  }
  if (!section.startsWith(SECTION + ".")) {
    return undefined;
  }
  let cur: unknown = settings;
  for (const part of section.slice(SECTION.length + 1).split(".")) {
    if (!cur || typeof cur !== "object") {
      return null;
    }
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined ? null : cur;
}

function setPath(target: Record<string, unknown>, parts: string[], value: unknown): void {
  let cur = target;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (!next || typeof next !== "object" || Array.isArray(next)) {
      cur[part] = {};
    }
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

export interface DocumentFilterLike {
  scheme: string;
  language?: string;
  pattern?: string;
}

/** Languages this extension contributes for the pairing conventions. */
export const LANGUAGES = ["mt-hypothesis", "mt-reference", "mt-source"];

/** Turn a pairing-rule pattern into a glob a document filter accepts. */
export function ruleGlob(pattern: string): string {
  // {stem}, {name}, {1}… are placeholders in reference/source patterns.
  let g = pattern.replace(/\{[A-Za-z0-9_]+\}/g, "*").replace(/\\/g, "/");
  g = g.replace(/\*{3,}/g, "**");
  if (g.startsWith("/") || /^[A-Za-z]:\//.test(g) || g.startsWith("**/")) {
    return g;
  }
  if (g.startsWith("./")) {
    g = g.slice(2);
  }
  return "**/" + g;
}

interface PairRuleLike {
  hypothesis?: unknown;
  references?: unknown;
  source?: unknown;
}

/**
 * Segment files the server scores per segment (gettext PO, XLIFF, TMX, SubRip,
 * WebVTT): the extensions the server reads them by.  They are matched by file
 * name, never by languageId: VS Code gives them another extension's language
 * (`po`, `xml`, `srt`, `plaintext`…), which keeps its highlighting.
 */
export const SEGMENT_EXTENSIONS = ["po", "pot", "xlf", "xliff", "sdlxliff", "mxliff", "tmx", "srt", "vtt"];

/** The document filter patterns of the segment files (VS Code's globs are case-sensitive: both cases). */
export const SEGMENT_PATTERNS = [
  `**/*.{${SEGMENT_EXTENSIONS.join(",")}}`,
  `**/*.{${SEGMENT_EXTENSIONS.map((e) => e.toUpperCase()).join(",")}}`,
];

/** The folders whose `<lang>.json` or `<lang>/NAME.json` are localization files (the server's l10n_paths.LOCALE_DIRS). */
export const LOCALE_DIRS = ["locales", "locale", "i18n", "lang", "langs", "languages", "translations", "l10n", "messages"];

/**
 * Software localization files, by path convention only (never every `.json`: `package.json` and
 * `tsconfig.json` are not sent): i18next / vue-i18n / ngx-translate JSON under a locale folder,
 * Flutter ARB, WebExtension messages.  The server then tells a language file from any other JSON there.
 */
export const L10N_PATTERNS = [
  `**/{${LOCALE_DIRS.join(",")}}/*/*.json`,
  `**/{${LOCALE_DIRS.join(",")}}/*.json`,
  "**/*.arb",
  "**/_locales/*/messages.json",
];

/** Which documents the server sees: the convention languages, the segment files, localization files, and every file a pairing rule names. */
export function documentSelector(pairs: unknown): DocumentFilterLike[] {
  const out: DocumentFilterLike[] = LANGUAGES.map((language) => ({ scheme: "file", language }));
  out.push(...SEGMENT_PATTERNS.map((pattern) => ({ scheme: "file", pattern })));
  out.push(...L10N_PATTERNS.map((pattern) => ({ scheme: "file", pattern })));
  const seen = new Set<string>([...SEGMENT_PATTERNS, ...L10N_PATTERNS]);
  const add = (p: unknown) => {
    if (typeof p !== "string" || !p.trim()) {
      return;
    }
    const glob = ruleGlob(p.trim());
    if (!seen.has(glob)) {
      seen.add(glob);
      out.push({ scheme: "file", pattern: glob });
    }
  };
  if (Array.isArray(pairs)) {
    for (const rule of pairs as PairRuleLike[]) {
      if (!rule || typeof rule !== "object") {
        continue;
      }
      add(rule.hypothesis);
      if (Array.isArray(rule.references)) {
        rule.references.forEach(add);
      } else {
        add(rule.references);
      }
      add(rule.source);
    }
  }
  return out;
}
