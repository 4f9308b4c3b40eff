// When VS Code asks the server for a document's diagnostics.
//
// vscode-languageclient pulls after every change by default and, when the
// next key comes before the answer, cancels the pull in flight; a cancelled
// pull leaves it without a result id (lib/common/diagnostic.js: the
// cancelled request resolves to an empty full report with none), so its
// next pull gets the whole report again: at 8 keys/s on a large file, a
// 1,000-item reply (~300 KB) for the extension host to convert several
// times a second, which then forwards the keys and asks for the hints late.
//
// So the extension does not pull on change.  It pulls when a document is
// opened or shown, and when the server asks (workspace/diagnostic/refresh):
// the server sends that request after an edit only when the document's
// diagnostics differ from what it last gave VS Code (the line's own
// findings, ~150 ms after the keys stop; the ranks a second later), so each
// pull carries its previousResultId and nothing is pulled while nothing changed.

import type { DiagnosticPullOptions } from "vscode-languageclient";

export const diagnosticPullOptions: DiagnosticPullOptions = {
  onChange: false,
  onSave: false,
};
