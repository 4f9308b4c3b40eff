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
