"""The wire: the editor's pipe read by the event loop (transport) and the LSP protocol with its JSON encoding (protocol)."""
