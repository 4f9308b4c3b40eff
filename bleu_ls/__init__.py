"""bleu-ls: sentence BLEU and chrF beside every line of an MT hypothesis, live."""

__version__ = "0.1.0"
