"""The ``spelling`` check of the target: the dictionaries (dictionary.py: the word lists
``pyspellchecker`` ships, read once per language), one line's unknown words (check.py), the
user's word list ``.bleu-ls/words.txt`` (wordlist.py)."""
