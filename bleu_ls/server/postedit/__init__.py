"""Post-editing in the server: the draft of a document, HTER rows (effort), the paired test against the draft, another system compared with this one."""
