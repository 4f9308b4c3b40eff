"""The adequacy rule without a reference on the MQM data: the flag study's yardstick
(scripts/flag_study.py), the rows run as ``bleu-ls check`` runs a file with its source
and no reference (similarity to the source alone), at three shares.

    PYTHONPATH=. .venv/bin/python scripts/noref_study.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import flag_study as fs  # noqa: E402
_ADQ = {"enabled": True}
variants = [
    ("adequacy alone (no reference): bottom 2%", {"diagnostics": {"adequacy": {**_ADQ, "percent": 2}}}, "adequacy"),
    ("adequacy alone (no reference): bottom 3%", {"diagnostics": {"adequacy": {**_ADQ, "percent": 3}}}, "adequacy"),
    ("adequacy alone (no reference): bottom 5%", {"diagnostics": {"adequacy": {**_ADQ, "percent": 5}}}, "adequacy"),
]
fs.REFERENCE = False
if not fs.rated_folders():
    sys.exit(f"noref_study: no rated folder under {fs.DATA_ROOT.resolve()}")
study = fs.run(fs.rated_folders(), n_boot=1000, variants=variants, loto=False, extra=lambda s: {}, codes=False)
print("\n".join(fs.table(study, True)))
