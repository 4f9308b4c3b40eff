"""Terminology glossaries (TBX, CSV/TSV, plain do-not-translate lists) read into one model."""
