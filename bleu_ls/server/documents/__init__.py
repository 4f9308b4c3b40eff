"""Documents: the text of an open file as lines with its edits (document) and files on disk (reading, path keys)."""
