// Semantic highlighting of a hypothesis file's words (server token types
// bleuChanged / bleuUnmatched): palette commands that switch each kind on
// or off through the bleuLs.highlights.* settings. The colours themselves
// are configurationDefaults in package.json (editor.semanticTokenColorCustomizations).

import * as vscode from "vscode";

/** The highlight kinds: setting key under bleuLs.highlights, command, words for the status message. */
export const HIGHLIGHTS = [
  { key: "changed", command: "bleu-ls.toggleChangedWords", words: "changed-word highlighting" },
  { key: "unmatched", command: "bleu-ls.toggleUnmatchedWords", words: "unmatched-word highlighting" },
] as const;

/** Flip bleuLs.highlights.<key> (workspace setting when a folder is open, else user setting). */
export async function toggleHighlight(key: string, words: string): Promise<boolean> {
  const cfg = vscode.workspace.getConfiguration("bleuLs");
  const now = cfg.get<boolean>(`highlights.${key}`, true);
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await cfg.update(`highlights.${key}`, !now, target);
  void vscode.window.setStatusBarMessage(`bleu-ls: ${words} ${now ? "off" : "on"}`, 2500);
  return !now;
}

export function highlightCommands(): vscode.Disposable[] {
  return HIGHLIGHTS.map((h) => vscode.commands.registerCommand(h.command, () => toggleHighlight(h.key, h.words)));
}

/**
 * A document with more lines than this gets the semantic tokens of the lines
 * on screen only (range requests), never the whole document's.
 *
 * Why: VS Code applies a whole-document answer (full or delta) in the
 * workbench's main thread over every token of the document after each pause
 * in typing, and then merges those tokens into every line it reads (bracket
 * matching, rendering).  At 100,000 lines (~280,000 tokens) that kept the
 * workbench busy ~80% of the time while typing and held each new score hint
 * back by hundreds of milliseconds (profile: tests/editors, BLEU_LS_VSCODE_PROFILE).
 */
export const VIEWPORT_TOKENS_LINES = 10_000;

/** The choice made for each open document at its first whole-document request. */
const whole = new WeakMap<object, boolean>();

/**
 * Whether VS Code may ask for this document's tokens as a whole: decided once
 * per open document (by its size then) and kept while it stays open.  A
 * document that had whole-document tokens keeps them when it grows past the
 * limit: refusing then would leave VS Code with its last whole answer, which
 * it takes as complete and so never asks for ranges, and new words unmarked.
 */
export function wholeDocumentTokens(document: vscode.TextDocument): boolean {
  let ok = whole.get(document);
  if (ok === undefined) {
    ok = document.lineCount <= VIEWPORT_TOKENS_LINES;
    whole.set(document, ok);
  }
  return ok;
}

/**
 * vscode-languageclient middleware: a large document's whole-document token
 * requests end as "not available now" (a cancellation, which VS Code takes
 * quietly and which leaves its tokens incomplete), so that VS Code asks for
 * the visible lines instead (textDocument/semanticTokens/range) after each
 * change and scroll.  An empty answer would not do: VS Code would take it as
 * the whole document's tokens and stop asking for ranges.
 */
export const tokensMiddleware = {
  provideDocumentSemanticTokens(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
    next: (document: vscode.TextDocument, token: vscode.CancellationToken) => vscode.ProviderResult<vscode.SemanticTokens>,
  ): vscode.ProviderResult<vscode.SemanticTokens> {
    if (!wholeDocumentTokens(document)) {
      throw new vscode.CancellationError();
    }
    return next(document, token);
  },
  provideDocumentSemanticTokensEdits(
    document: vscode.TextDocument,
    previousResultId: string,
    token: vscode.CancellationToken,
    next: (
      document: vscode.TextDocument,
      previousResultId: string,
      token: vscode.CancellationToken,
    ) => vscode.ProviderResult<vscode.SemanticTokens | vscode.SemanticTokensEdits>,
  ): vscode.ProviderResult<vscode.SemanticTokens | vscode.SemanticTokensEdits> {
    if (!wholeDocumentTokens(document)) {
      throw new vscode.CancellationError();
    }
    return next(document, previousResultId, token);
  },
};
