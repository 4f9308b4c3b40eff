"""The bleu-ls language server (pygls): see docs/server.md."""
