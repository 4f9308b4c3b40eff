// Which documents are bleu-ls's: one test used by every part of the extension
// (status item, commands, next/previous flagged, report), so that a segment
// file is handed over and served by its name whatever language another
// extension gave it.  No vscode import: unit-tested without an editor.

import { LANGUAGES, SEGMENT_EXTENSIONS } from "./settings";

/** What the test reads of a document (a vscode.TextDocument has it). */
export interface DocumentLike {
  languageId: string;
  uri: { scheme: string; path: string };
}

/** Whether a file name ends in a segment file's extension (.po, .xlf, .srt…; all lower or all upper case, as the selector). */
export function isSegmentFile(path: string): boolean {
  const m = /\.([A-Za-z]+)$/.exec(path);
  if (!m) {
    return false;
  }
  const ext = m[1];
  if (ext !== ext.toLowerCase() && ext !== ext.toUpperCase()) {
    return false;
  }
  return SEGMENT_EXTENSIONS.includes(ext.toLowerCase());
}

/**
 * Whether bleu-ls serves this document: a file (never an untitled buffer or a
 * diff view's other side) with one of the extension's own languages, a segment
 * file by its name, or a document the client's selector takes (the files the
 * pairing rules name), asked through `matches` (vscode.languages.match).
 */
export function isBleuDocument(doc: DocumentLike | undefined, matches?: (doc: DocumentLike) => boolean): boolean {
  if (!doc || doc.uri.scheme !== "file") {
    return false;
  }
  if (LANGUAGES.includes(doc.languageId) || isSegmentFile(doc.uri.path)) {
    return true;
  }
  return matches ? matches(doc) : false;
}
