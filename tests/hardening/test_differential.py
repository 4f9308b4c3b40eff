"""Differential state machine: the server's line model + the incremental
pair model, driven by random edit scripts, against from-scratch oracles.

Each step applies LSP-style incremental edits (multi-line ranges, inserted
and deleted lines, ``\\n`` / ``\\r\\n`` / ``\\r`` mixes, astral characters,
U+2028, form feed and NEL inside lines, positions past the end of a line or
of the document, the empty document) to a ``LineDocument`` and splices what
it reports into a ``PairModel``; other steps edit the references, switch
settings (metrics on/off, tokenizer, chrF/chrF++, NLTK preset, TER on/off
and its case, number of references) or score part of the stale lines.  The
text as first seen is the draft: its line partners and HTER rows follow
every hypothesis splice.  After every step:

* the document's text equals the text an independent oracle computes by
  plain string surgery at offsets derived from the wire positions;
* its scored lines equal an independent LSP line split of that text, and
  each line's end column (where a hint goes) is right in the document's
  position encoding;
* every per-line statistic, per-line score and hint label equals the one of
  a fresh ``PairModel`` built from scratch on the same lines;
* every corpus score equals the fresh model's and — for the sacrebleu
  metrics — sacrebleu's ``corpus_score`` on the paired lines, and one
  touched line's score equals sacrebleu's ``sentence_score``;
* the touched line's HTER and the corpus HTER equal sacrebleu's
  ``TER(case_sensitive=True)`` of the draft partners against the lines;
* the diagnostics analysis kept across the steps (incremental) equals a
  fresh ``analyse()`` of the model.

1,000 edit scripts in a normal run; 10,000 under the ``fuzz`` profile (see
conftest.py).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sacrebleu.metrics import BLEU, CHRF, TER

from bleu_ls.qa.analysis import Analyzer, analyse
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.engine.ter import TerMetric
from bleu_ls.postedit import DraftTrack
from bleu_ls.config.settings import HintSettings, Settings

document = pytest.importorskip("bleu_ls.server.documents.document", reason="the server's line model has not landed")
LineDocument = document.LineDocument

from bleu_ls.server.features.hints import label_for  # the hint label as the server renders it  # noqa: E402
from bleu_ls.server.postedit.effort import EffortRows  # noqa: E402

# -- what text is made of ---------------------------------------------------------
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "The", ",", ".", "东京", "Zürich", "don't", "3.5"]
ODD = ["\u2028", "\f", "\x85", "\u2029", "\x0b", "\x1c", "😀", "𝄞", "\t", "\u00a0", "  "]
BREAKS = ["\n", "\r\n", "\r"]
piece = st.one_of(
    st.sampled_from(WORDS).map(lambda w: w + " "),
    st.sampled_from(WORDS),
    st.sampled_from(ODD),
    st.sampled_from(BREAKS),
)
insert_text = st.lists(piece, max_size=8).map("".join)
plain_line = st.lists(st.sampled_from(WORDS + ["😀", "\u2028", "\x85"]), max_size=7).map(" ".join)
line_list = st.lists(plain_line, max_size=6)
initial_text = st.lists(piece, max_size=30).map("".join)

ENCODINGS = ["utf-16", "utf-8", "utf-32"]
TOKENIZERS = ["13a", "none", "intl", "char", "zh"]


# -- the independent oracle ---------------------------------------------------------
def oracle_lines(text: str) -> list[tuple[int, int]]:
    """(start offset, end offset of content) of every editor line of ``text``."""
    out = []
    start = i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\r" or c == "\n":
            out.append((start, i))
            i += 2 if (c == "\r" and i + 1 < n and text[i + 1] == "\n") else 1
            start = i
        else:
            i += 1
    out.append((start, n))
    return out


def oracle_scored_lines(text: str) -> list[str]:
    lines = [text[a:b] for a, b in oracle_lines(text)]
    if lines[-1] == "":
        lines.pop()  # a final line break (or the empty document) adds no line
    return lines


def unit_len(ch: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(ch.encode("utf-8"))
    if encoding == "utf-16":
        return 2 if ord(ch) > 0xFFFF else 1
    return 1


def oracle_offset(text: str, line: int, col: int, encoding: str) -> int:
    """Offset of a wire position: past the last line -> end of text; past a
    line's end -> its end; inside a character -> the next boundary."""
    lines = oracle_lines(text)
    if line >= len(lines):
        return len(text)
    a, b = lines[line]
    count = 0
    i = a
    while i < b and count < col:
        count += unit_len(text[i], encoding)
        i += 1
    return i


def fresh_metrics(cfg: dict):
    s = Settings()
    s.bleu.enabled = cfg["bleu"]
    s.bleu.tokenize = cfg["tokenize"]
    s.bleu.lowercase = cfg["lowercase"]
    s.bleu.preset = cfg["preset"]
    s.chrf.enabled = cfg["chrf"]
    s.chrf.word_order = cfg["word_order"]
    s.chrf.lowercase = cfg["lowercase"]
    s.ter.enabled = cfg["ter"]
    s.ter.case_sensitive = cfg["ter_case"]
    return build_metrics(s)


def sacre_oracles(cfg: dict) -> dict:
    """sacrebleu objects computing what the settings ask for (sacrebleu preset only)."""
    out = {}
    if cfg["bleu"] and cfg["preset"] == "sacrebleu":
        out["bleu"] = (
            BLEU(tokenize=cfg["tokenize"], lowercase=cfg["lowercase"]),
            BLEU(tokenize=cfg["tokenize"], lowercase=cfg["lowercase"], effective_order=True),
        )
    if cfg["chrf"]:
        c = CHRF(word_order=cfg["word_order"], lowercase=cfg["lowercase"])
        out["chrf"] = (c, c)
    if cfg["ter"]:
        t = TER(case_sensitive=cfg["ter_case"])
        out["ter"] = (t, t)
    return out


config_strategy = st.fixed_dictionaries(
    {
        "bleu": st.booleans(),
        "chrf": st.booleans(),
        "tokenize": st.sampled_from(TOKENIZERS),
        "lowercase": st.booleans(),
        "preset": st.sampled_from(["sacrebleu", "sacrebleu", "sacrebleu", "nltk"]),
        "word_order": st.sampled_from([0, 2]),
        "ter": st.booleans(),
        "ter_case": st.booleans(),
    }
).filter(lambda c: not (c["preset"] == "nltk" and c["tokenize"] != "13a"))

#: diagnostics on tiny documents: outliers ranked from 3 lines, loops from 2 repeats
ANALYSIS_SETTINGS = Settings.from_dict(
    {"diagnostics": {"outlier": {"minLines": 3, "minTokens": 0}, "repetition": {"minCount": 2},
                     "misaligned": {"minRun": 2}, "wrongLanguage": {"enabled": False}}}
)

DEFAULT_CONFIG = {"bleu": True, "chrf": True, "tokenize": "13a", "lowercase": False, "preset": "sacrebleu", "word_order": 0,
                  "ter": False, "ter_case": False}


class DocumentAndModel(RuleBasedStateMachine):
    """One open hypothesis document paired with one or two references."""

    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.refs: list[list[str]] = [[]]
        self.cfg = dict(DEFAULT_CONFIG)
        self.touched: int | None = None

    @initialize(
        text=initial_text,
        refs=st.lists(line_list, min_size=1, max_size=2),
        encoding=st.sampled_from(ENCODINGS),
        cfg=config_strategy,
        lazy=st.booleans(),
        cap=st.sampled_from([None, None, 6, 16]),
    )
    def open_document(self, text, refs, encoding, cfg, lazy, cap):
        self.text = text
        self.encoding = encoding
        self.refs = [list(r) for r in refs]
        self.cfg = cfg
        self.doc = LineDocument(text, 1, encoding)
        # as the server builds it: slow lines (TER) and lines over a (here tiny) length
        # cap are left stale by edits and counted by background jobs
        self.model = PairModel(
            fresh_metrics(cfg), self.doc.engine_lines(), self.refs, lazy=lazy, defer_slow=True, long_line_bytes=cap
        )
        # the draft: the text as first seen; HTER rows follow every edit (drafts.splice)
        lines = self.doc.engine_lines()
        self.track = DraftTrack(lines, lines)
        self.effort = EffortRows(TerMetric(case_sensitive=True), self.track, lines)
        # the diagnostics analysis, kept across the steps as the server keeps it
        self.analyzer = Analyzer(ANALYSIS_SETTINGS)

    def _splice_hyp(self, splice) -> None:
        self.model.splice_hyp(splice.start, splice.end, splice.lines)
        self.track.splice(splice.start, splice.end, splice.lines)
        self.effort.splice(splice.start, splice.end, splice.lines)

    # -- helpers ------------------------------------------------------------------------
    def _position(self, data, past_end: bool):
        lines = oracle_lines(self.text)
        line = data.draw(st.integers(0, len(lines) - 1 + (2 if past_end else 0)), label="line")
        if line < len(lines):
            a, b = lines[line]
            width = sum(unit_len(c, self.encoding) for c in self.text[a:b])
        else:
            width = 3
        col = data.draw(st.integers(0, width + (3 if past_end else 0)), label="col")
        return line, col

    def _edit(self, data, past_end: bool = False) -> None:
        l1, c1 = self._position(data, past_end)
        if data.draw(st.booleans(), label="same line"):
            l2, c2 = l1, data.draw(st.integers(c1, c1 + 4), label="end col")
        else:
            l2, c2 = self._position(data, past_end)
        new = data.draw(insert_text, label="text")
        a = oracle_offset(self.text, l1, c1, self.encoding)
        b = oracle_offset(self.text, l2, c2, self.encoding)
        if b < a:
            a, b = b, a
        change = {
            "range": {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}},
            "text": new,
        }
        if (l2, c2) < (l1, c1):  # keep ranges ordered as clients send them
            change["range"]["start"], change["range"]["end"] = change["range"]["end"], change["range"]["start"]
        splice = self.doc.apply(change)
        self.text = self.text[:a] + new + self.text[b:]
        self._splice_hyp(splice)
        self.touched = splice.start

    # -- rules ----------------------------------------------------------------------------
    @rule(data=st.data())
    def type_text(self, data):
        """One incremental change, positions inside the document."""
        self._edit(data)

    @rule(data=st.data())
    def wild_positions(self, data):
        """A change whose positions may lie past a line's end or the last line."""
        self._edit(data, past_end=True)

    @rule(data=st.data(), n=st.integers(2, 6))
    def burst(self, data, n):
        """Several changes (one didChange with many contentChanges), with partial
        background scoring in between, so edits land on stale rows."""
        for _ in range(n):
            self._edit(data)
            if data.draw(st.booleans(), label="refresh some"):
                self.model.refresh(max_lines=data.draw(st.integers(0, 3), label="slice"))

    @rule(data=st.data())
    def insert_or_delete_lines(self, data):
        """Whole-line inserts and deletes, as a paste or a cut of full lines."""
        lines = oracle_lines(self.text)
        l1 = data.draw(st.integers(0, len(lines)), label="from")
        if data.draw(st.booleans(), label="insert"):
            new = "".join(s + data.draw(st.sampled_from(BREAKS)) for s in data.draw(line_list, label="lines"))
            change = {"range": {"start": {"line": l1, "character": 0}, "end": {"line": l1, "character": 0}}, "text": new}
            a = oracle_offset(self.text, l1, 0, self.encoding)
            b = a
        else:
            l2 = data.draw(st.integers(l1, len(lines)), label="to")
            change = {"range": {"start": {"line": l1, "character": 0}, "end": {"line": l2, "character": 0}}, "text": ""}
            new = ""
            a = oracle_offset(self.text, l1, 0, self.encoding)
            b = oracle_offset(self.text, l2, 0, self.encoding)
        splice = self.doc.apply(change)
        self.text = self.text[:a] + new + self.text[b:]
        self._splice_hyp(splice)
        self.touched = splice.start

    @rule(text=initial_text)
    def replace_whole_document(self, text):
        """A full-text change (no range)."""
        splice = self.doc.apply({"text": text})
        self.text = text
        self._splice_hyp(splice)
        self.touched = splice.start

    @rule()
    def empty_document(self):
        splice = self.doc.apply({"text": ""})
        self.text = ""
        self._splice_hyp(splice)

    @rule(data=st.data())
    def edit_reference(self, data):
        """A reference edited in an open buffer: a splice of its lines."""
        k = data.draw(st.integers(0, len(self.refs) - 1), label="ref")
        ref = self.refs[k]
        s = data.draw(st.integers(0, len(ref)), label="start")
        e = data.draw(st.integers(s, len(ref)), label="end")
        new = data.draw(line_list, label="lines")
        ref[s:e] = new
        self.model.splice_ref(k, s, e, new)
        self.touched = s

    @rule(data=st.data())
    def reload_reference(self, data):
        """A reference re-read from disk: the whole list, diffed."""
        k = data.draw(st.integers(0, len(self.refs) - 1), label="ref")
        if data.draw(st.booleans(), label="small change") and self.refs[k]:
            new = list(self.refs[k])
            i = data.draw(st.integers(0, len(new) - 1), label="line")
            new[i] = data.draw(plain_line, label="text")
        else:
            new = data.draw(line_list, label="lines")
        self.refs[k] = list(new)
        self.model.set_ref(k, new)

    @rule(refs=st.lists(line_list, min_size=1, max_size=3))
    def change_reference_set(self, refs):
        """Settings now name another number of references."""
        self.refs = [list(r) for r in refs]
        self.model.set_refs(self.refs)

    @rule(cfg=config_strategy)
    def switch_settings(self, cfg):
        self.cfg = cfg
        self.model.set_metrics(fresh_metrics(cfg))

    @rule(n=st.integers(0, 5), light=st.booleans())
    def background_slice(self, n, light):
        self.model.refresh(max_lines=n, light_only=light)

    @rule(data=st.data())
    def edit_while_a_job_runs(self, data):
        """An edit leaves rows stale; a background job copies some of them and
        counts them (as the scorer's worker does) while more edits land; then
        its rows are installed where the lines did not change meanwhile."""
        self._edit(data)
        job = self.model.line_job(self.model.stale_lines(data.draw(st.integers(0, 6), label="job lines")))
        for _ in range(data.draw(st.integers(0, 2), label="edits meanwhile")):
            if data.draw(st.booleans(), label="line edit"):
                self._edit(data)
            else:
                self.insert_or_delete_lines(data)
        self.model.install_lines(job, job.run())

    @precondition(lambda self: self.model.n_paired > 0)
    @rule(data=st.data())
    def look_at_lines(self, data):
        """An inlay-hint request for a range: those lines are scored first."""
        a = data.draw(st.integers(0, self.model.n_paired - 1))
        self.model.ensure(a, a + data.draw(st.integers(1, 4)))

    # -- the oracle checks ---------------------------------------------------------------
    @invariant()
    def document_matches_oracle(self):
        assert self.doc.text == self.text
        lines = oracle_scored_lines(self.text)
        assert self.doc.engine_lines() == lines
        assert self.doc.n_lines == len(lines)
        assert self.doc.line_count == len(oracle_lines(self.text))
        for i, line in enumerate(lines):
            assert self.doc.end_column(i) == sum(unit_len(c, self.encoding) for c in line)
        assert self.model.hyp == [s.rstrip() for s in lines]

    @invariant()
    def scores_match_fresh_computation(self):
        model = self.model
        hyp = [s.rstrip() for s in oracle_scored_lines(self.text)]
        refs = [[s.rstrip() for s in r] for r in self.refs]
        assert model.refs == refs
        fresh = PairModel(fresh_metrics(self.cfg), hyp, refs)
        p = fresh.n_paired
        assert model.n_paired == p
        assert list(model.metrics) == list(fresh.metrics)
        # per-line values before anything forces a full refresh (stale rows count on demand)
        for key in fresh.metrics:
            for i in range(p):
                got, want = model.line_value(key, i), fresh.line_value(key, i)
                assert got == want or (got is None and want is None), (key, i, got, want)
                assert model.line_stats(key, i) == fresh.line_stats(key, i), (key, i)
        hs = HintSettings()
        for i in range(p):
            assert label_for(model, i, hs) == label_for(fresh, i, hs)
        sacre = sacre_oracles(self.cfg)
        for key in fresh.metrics:
            got = model.corpus(key)
            want = fresh.corpus(key)
            assert got.score == want.score or (got.score is None and want.score is None)
            assert model.totals(key) == fresh.totals(key)
            if key in sacre and p:
                corpus_metric, sentence_metric = sacre[key]
                hyps = hyp[:p]
                streams = [r[:p] for r in refs]
                assert got.score == corpus_metric.corpus_score(hyps, streams).score, key
                i = min(self.touched or 0, p - 1)
                line_want = sentence_metric.sentence_score(hyp[i], [r[i] for r in refs]).score
                line_got = model.line_value(key, i)
                assert line_got == line_want or (line_got is None and math.isnan(line_want)), (key, i)
        if model.metrics:
            assert model.stale_count() == 0

    @invariant()
    def analysis_matches_fresh_analysis(self):
        """The analyser kept across the edits (it looks again only at the
        lines that changed) finds exactly what a fresh ``analyse()`` finds;
        every line whose findings moved is among those it says changed."""
        before = self.__dict__.get("_findings_by_line", {})
        got = self.analyzer.analyse(self.model)
        assert got == analyse(self.model, ANALYSIS_SETTINGS)
        now: dict = {}
        for f in got:
            now.setdefault(f.line, []).append(f)
        if self.analyzer.changed is not None:
            assert {i for i in set(now) | set(before) if now.get(i) != before.get(i)} <= self.analyzer.changed
        self._findings_by_line = now

    @invariant()
    def hter_matches_fresh_computation(self):
        """HTER rows after the edits equal sacrebleu's TER(case_sensitive=True)
        of each line's draft partner against the line, and the running sums
        the corpus of all lines."""
        lines = self.doc.engine_lines()
        effort, track = self.effort, self.track
        assert effort.lines == lines and track.n_lines == len(lines)
        ter = TER(case_sensitive=True)
        drafts = [(track.draft_line(i) or "").rstrip() for i in range(len(lines))]
        posts = [x.rstrip() for x in lines]
        i = min(self.touched or 0, len(lines) - 1)
        if lines:
            assert effort.line(i)["score"] == ter.sentence_score(drafts[i], [posts[i]]).score
        for j in range(len(lines)):
            effort.ensure(j, j + 1)
        assert (effort.totals == effort.rows.sum(axis=0)).all()
        if lines:
            assert effort.corpus()["score"] == ter.corpus_score(drafts, [posts]).score


DocumentAndModel.TestCase.settings = settings(
    max_examples=max(1_000, settings.default.max_examples),
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
TestDocumentAndModel = DocumentAndModel.TestCase
