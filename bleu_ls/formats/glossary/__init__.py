"""Terminology glossaries: TBX (2019 and 2008), CSV/TSV tables and do-not-translate lists, read into one model.

:mod:`.model` the types (Glossary, Concept, Term, the statuses, same_language);
:mod:`.read` reading a file or bytes (read_glossary, read_glossary_bytes), never raising;
:mod:`.tbx` and :mod:`.table` the readers; :mod:`.problems` their sentences.
"""
