"""Views: what the editor is shown, made from a pair's state (hint, hover and lens text, diagnostics kept per line and published, semantic tokens per line)."""
