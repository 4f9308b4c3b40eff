// Score hints that keep their line.  VS Code wraps a long line with its
// hints in it, and a hint's own padding (a breaking hair space) and the
// space in "BLEU 13.3" were break opportunities: a long line's hint, or half
// of it, moved alone onto a row of its own.  Here each label is glued to the
// line's last word: the padding is a no-break space at the start of the
// label and the label's spaces are no-break spaces, so the hint wraps
// together with the last word (Unicode line breaking, which the editor's
// DOM-measured wrapping follows), never alone.  VS Code's "simple" wrapping
// (the MT languages' default) counts columns and may break after any of its
// break-after characters, a final "." included: there the MT languages'
// editor.wordWrapBreakAfterCharacters (package.json) hold spaces and the
// CJK marks only, so the break before a hint is never one.

import * as vscode from "vscode";

/** The label with no-break spaces (it reads the same). */
export function unbreakable(label: string): string {
  return label.replace(/ /g, "\u00a0");
}

/** vscode-languageclient middleware: every hint glued to the text before it. */
export const hintsMiddleware = {
  async provideInlayHints(
    document: vscode.TextDocument,
    viewPort: vscode.Range,
    token: vscode.CancellationToken,
    next: (d: vscode.TextDocument, r: vscode.Range, t: vscode.CancellationToken) => vscode.ProviderResult<vscode.InlayHint[]>,
  ): Promise<vscode.InlayHint[] | null | undefined> {
    const hints = await next(document, viewPort, token);
    for (const h of hints ?? []) {
      const lead = h.paddingLeft ? "\u00a0" : "";
      h.paddingLeft = false;
      if (typeof h.label === "string") {
        h.label = lead + unbreakable(h.label);
      } else {
        h.label.forEach((part, i) => {
          part.value = (i === 0 ? lead : "") + unbreakable(part.value);
        });
      }
    }
    return hints;
  },
};
