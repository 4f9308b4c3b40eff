"""One LSP feature per module: thin functions between LSP and the engine."""
