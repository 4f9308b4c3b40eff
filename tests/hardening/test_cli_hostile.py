"""Hostile files through the command line (``bleu-ls score``, and
``bleu-ls check`` when present): every bad input ends with one clear
sentence on stderr and exit status 2, never a traceback; inputs that are odd
but valid (BOM, CRLF, a 10 MB line, 1M lines) are scored as sacrebleu
scores them."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sacrebleu

REPO = Path(__file__).resolve().parents[2]
HAS_CHECK = importlib.util.find_spec("bleu_ls.cli.check") is not None


def run(*args: str, user: str | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "bleu_ls", *args]
    if user is not None:
        argv = ["setpriv", "--reuid", user, "--regid", user, "--clear-groups", *argv]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO)


def assert_clean_failure(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    err = proc.stderr.strip()
    # the message is the last line, after argparse's usage lines if any
    last = err.splitlines()[-1]
    assert last.startswith("bleu-ls score: error: ") or last.startswith("bleu-ls check: "), err
    if not err.startswith("usage:"):
        assert len(err.splitlines()) == 1, err
    for w in words:
        assert w.lower() in err.lower(), (w, err)
    return err


@pytest.fixture
def hyp(tmp_path: Path) -> Path:
    p = tmp_path / "doc.hyp"
    p.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    return p


# Each bad reference: how to make it, and the words the message must contain.
def _not_utf8(p: Path) -> None:
    p.write_bytes(b"the cat\ncaf\xe9 au lait\n")


def _binary(p: Path) -> None:
    p.write_bytes(b"the cat\nhello\x00world\n")


def _folder(p: Path) -> None:
    p.mkdir()


def _symlink_loop(p: Path) -> None:
    p.symlink_to(p)


def _missing(p: Path) -> None:
    pass


BAD_REFERENCES = {
    "not-utf8": (_not_utf8, ["not UTF-8", "line 2"]),
    "binary": (_binary, ["binary", "line 2"]),
    "missing": (_missing, ["no such file"]),
    "folder": (_folder, ["folder"]),
    "symlink-loop": (_symlink_loop, ["cannot read"]),
}


@pytest.mark.parametrize("case", sorted(BAD_REFERENCES))
def test_score_bad_reference(case: str, hyp: Path, tmp_path: Path) -> None:
    make, words = BAD_REFERENCES[case]
    ref = tmp_path / "doc.ref"
    make(ref)
    err = assert_clean_failure(run("score", str(hyp), str(ref)), str(ref), *words)
    assert not err.startswith("Traceback")


@pytest.mark.parametrize("case", sorted(BAD_REFERENCES))
def test_score_bad_hypothesis(case: str, tmp_path: Path) -> None:
    make, words = BAD_REFERENCES[case]
    bad = tmp_path / "doc.hyp"
    make(bad)
    ref = tmp_path / "doc.ref"
    ref.write_text("the cat\nhello world\n", encoding="utf-8")
    assert_clean_failure(run("score", str(bad), str(ref)), str(bad), *words)


@pytest.mark.skipif(not HAS_CHECK, reason="bleu-ls check has not landed")
@pytest.mark.parametrize("case", sorted(BAD_REFERENCES))
def test_check_bad_reference_named_by_a_rule(case: str, hyp: Path, tmp_path: Path) -> None:
    """A reference a [[pairs]] rule names but that cannot be read: exit 2."""
    make, words = BAD_REFERENCES[case]
    # a rule's reference that is not a regular file is reported before any read
    words = {"missing": ["not found"], "folder": ["folder"], "symlink-loop": ["not found"]}.get(case, words)
    (tmp_path / "bleu-ls.toml").write_text('[[pairs]]\nhypothesis = "*.hyp"\nreferences = ["{stem}.ref"]\n', encoding="utf-8")
    ref = tmp_path / "doc.ref"
    make(ref)
    proc = run("check", str(hyp))
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    out = (proc.stdout + proc.stderr).lower()
    assert "doc.ref" in out and all(w.lower() in out for w in words), (words, out)


@pytest.mark.skipif(not HAS_CHECK, reason="bleu-ls check has not landed")
@pytest.mark.parametrize("case", ["missing", "folder", "symlink-loop"])
def test_check_convention_without_a_readable_reference_is_unpaired(case: str, hyp: Path, tmp_path: Path) -> None:
    """By convention only existing files pair: no NAME.ref file means an
    unpaired hypothesis (an information line), not an error."""
    BAD_REFERENCES[case][0](tmp_path / "doc.ref")
    proc = run("check", str(hyp))
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert "[unpaired]" in proc.stdout and "doc.ref" in proc.stdout


@pytest.mark.skipif(not HAS_CHECK, reason="bleu-ls check has not landed")
def test_check_missing_path_and_folder_of_garbage(tmp_path: Path) -> None:
    proc = run("check", str(tmp_path / "nope.hyp"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "nope.hyp" in proc.stderr
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "a.hyp").write_bytes(b"\xff\xfe\x00\x01")
    (junk / "a.ref").write_bytes(b"ok\n")
    (junk / "b.hyp").write_bytes(b"fine line\n")
    (junk / "b.ref").write_bytes(b"fine line\n")
    proc = run("check", str(junk))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, (proc.stdout, proc.stderr)
    assert "a.hyp" in proc.stderr and "not utf-8" in proc.stderr.lower()


def test_score_unreadable_reference_in_process(hyp: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    """Permission denied (root reads everything, so the refusal is simulated)."""
    from bleu_ls.cli import score

    ref = tmp_path / "doc.ref"
    ref.write_text("a\nb\n", encoding="utf-8")
    real_open = open

    def guarded_open(file, *a, **kw):
        if os.fspath(file) == str(ref):
            raise PermissionError(13, "Permission denied", str(ref))
        return real_open(file, *a, **kw)

    monkeypatch.setattr("builtins.open", guarded_open)
    assert score.main([str(hyp), str(ref)]) == 2
    err = capsys.readouterr().err
    assert "permission denied" in err.lower() and str(ref) in err


@pytest.mark.skipif(shutil.which("setpriv") is None or os.geteuid() != 0, reason="needs root and setpriv to run as nobody")
def test_score_unreadable_reference_as_nobody() -> None:
    """A real permission refusal: the command runs as nobody on a 0600 root file."""
    import tempfile

    tmp_path = Path(tempfile.mkdtemp(prefix="bleu-ls-perm-"))
    os.chmod(tmp_path, 0o755)
    hyp = tmp_path / "doc.hyp"
    hyp.write_text("a b\n", encoding="utf-8")
    hyp.chmod(0o644)
    ref = tmp_path / "doc.ref"
    ref.write_text("a b\n", encoding="utf-8")
    ref.chmod(0o600)
    probe = subprocess.run(
        ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", sys.executable, "-c", "import bleu_ls"],
        capture_output=True, env=dict(os.environ, PYTHONPATH=str(REPO)), cwd="/",
    )
    if probe.returncode != 0:
        pytest.skip("nobody cannot import the package here")
    try:
        assert_clean_failure(run("score", str(hyp), str(ref), user="65534"), str(ref), "permission denied")
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def test_score_line_count_mismatch(tmp_path: Path) -> None:
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_text("a\nb\nc\n", encoding="utf-8")
    ref.write_text("a\nb\n", encoding="utf-8")
    assert_clean_failure(run("score", str(hyp), str(ref)), "3 lines", "2 lines")


def test_score_bad_option_is_usage_error(hyp: Path, tmp_path: Path) -> None:
    ref = tmp_path / "r"
    ref.write_text("a\nb\n", encoding="utf-8")
    assert_clean_failure(run("score", str(hyp), str(ref), "--max-order", "0"))
    assert_clean_failure(run("score", str(hyp), str(ref), "--preset", "nltk", "--weights", "x"), "not a number")


def _corpus_from_json(proc: subprocess.CompletedProcess) -> float:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["corpus"]["score"]


def test_bom_and_crlf_score_like_plain_files(tmp_path: Path) -> None:
    hyp_lines = ["the cat sat on the mat", "hello 👋 world", "Zürich is naïve"]
    ref_lines = ["the cat sat on a mat", "hello world 👋", "Zürich is naive"]
    want = sacrebleu.corpus_bleu(hyp_lines, [ref_lines]).score
    variants = {
        "plain": ("\n".join(hyp_lines) + "\n").encode(),
        "bom": b"\xef\xbb\xbf" + ("\n".join(hyp_lines) + "\n").encode(),
        "crlf": ("\r\n".join(hyp_lines) + "\r\n").encode(),
        "bom-crlf-no-final-break": b"\xef\xbb\xbf" + "\r\n".join(hyp_lines).encode(),
    }
    ref = tmp_path / "ref"
    ref.write_bytes(b"\xef\xbb\xbf" + ("\r\n".join(ref_lines) + "\r\n").encode())
    for name, data in variants.items():
        hyp = tmp_path / f"{name}.hyp"
        hyp.write_bytes(data)
        proc = run("score", str(hyp), str(ref), "-f", "json")
        assert _corpus_from_json(proc) == want, name
        lines = json.loads(proc.stdout)["lines"]
        assert [rec["score"] for rec in lines] == [
            sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyp_lines, ref_lines)
        ], name


def test_empty_files_score_without_error(tmp_path: Path) -> None:
    hyp, ref = tmp_path / "h", tmp_path / "r"
    hyp.write_bytes(b"")
    ref.write_bytes(b"")
    proc = run("score", str(hyp), str(ref), "-f", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["lines"] == [] and doc["corpus"]["score"] == 0.0


def _long_line(n_chars: int) -> str:
    words = ["the", "cat", "sat", "on", "mat", "a", "dog"] + [f"w{i}" for i in range(3000)]
    out, size, i = [], 0, 0
    while size < n_chars:
        w = words[(i * 7919) % len(words)]
        out.append(w)
        size += len(w) + 1
        i += 1
    return " ".join(out)[:n_chars].rstrip()


def _check_long_line(tmp_path: Path, n_chars: int) -> float:
    line = _long_line(n_chars)
    ref_line = " ".join(reversed(line.split(" ")[: len(line) // 40]))
    hyp, ref = tmp_path / "h", tmp_path / "r"
    hyp.write_text(line + "\n", encoding="utf-8")
    ref.write_text(ref_line + "\n", encoding="utf-8")
    t0 = time.perf_counter()
    proc = run("score", str(hyp), str(ref), "-f", "json")
    elapsed = time.perf_counter() - t0
    assert _corpus_from_json(proc) == sacrebleu.corpus_bleu([line], [[ref_line]]).score
    return elapsed


def test_one_megabyte_single_line(tmp_path: Path) -> None:
    _check_long_line(tmp_path, 1_000_000)


@pytest.mark.slow
def test_ten_megabyte_single_line(tmp_path: Path) -> None:
    elapsed = _check_long_line(tmp_path, 10_000_000)
    print(f"10 MB single line: bleu-ls score took {elapsed:.1f} s")


def _check_many_lines(tmp_path: Path, n: int) -> float:
    """n short lines made of k copies of a 7-line block: every count is k
    times the block's, so the corpus score equals the block's score, and
    sacrebleu on the block is the oracle."""
    block_h = [f"the cat sat on the mat {i}" for i in range(7)]
    block_r = [f"the cat sits on the mat {i}" if i % 2 else f"a cat sat on the mat {i}" for i in range(7)]
    k = n // 7
    hyp, ref = tmp_path / "h", tmp_path / "r"
    hyp.write_text("\n".join(block_h * k) + "\n", encoding="utf-8")
    ref.write_text("\n".join(block_r * k) + "\n", encoding="utf-8")
    t0 = time.perf_counter()
    proc = run("score", str(hyp), str(ref), "-f", "tsv")
    elapsed = time.perf_counter() - t0
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()
    assert len(rows) == 7 * k + 2  # header, lines, corpus
    want = sacrebleu.corpus_bleu(block_h, [block_r]).score
    corpus = rows[-1].split("\t")
    assert corpus[0] == "corpus" and float(corpus[1]) == want
    line_want = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(block_h, block_r)]
    for j in (0, 1, 7 * k - 1):
        assert float(rows[1 + j].split("\t")[1]) == line_want[j % 7]
    return elapsed


def test_hundred_thousand_lines(tmp_path: Path) -> None:
    _check_many_lines(tmp_path, 100_002)


@pytest.mark.slow
def test_one_million_lines(tmp_path: Path) -> None:
    elapsed = _check_many_lines(tmp_path, 1_000_006)
    print(f"1M lines: bleu-ls score took {elapsed:.1f} s")
