"""Pairs: the manager of open documents and their pairs, a pair's state, binding it to its files, opening large documents, settings layers, file watching."""
