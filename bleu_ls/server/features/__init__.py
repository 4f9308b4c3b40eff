"""One LSP feature per module: thin functions between LSP and a document's answers (``manager.answers(uri)``: roles.DocumentAnswers)."""
