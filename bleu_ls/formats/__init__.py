"""Files read into segments: line files, gettext PO, XLIFF 1.2 / 2.x, TMX, SRT, WebVTT.

``model`` holds the data types every reader produces; one module per format
reads a decoded text into a :class:`~bleu_ls.formats.model.SegmentDocument`;
``table`` has one row per format (how it is recognised, its reader, prefix
reader, live index, states, drafts and pairing), which the rest of the
package asks instead of testing a format's name.
Plain Python, shared by the CLI and the server; imports nothing from the server.
"""

from .read import detect_format, family, first_problem, parse, read_document, read_documents

__all__ = ["detect_format", "family", "first_problem", "parse", "read_document", "read_documents"]
