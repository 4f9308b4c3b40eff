from hypothesis import given, settings, strategies as st

from bleu_ls.postedit import DraftTrack, align
from bleu_ls.postedit.track import NONE


def test_same_line_count_pairs_by_index():
    assert align(["a", "b", "c"], ["x", "b", "y"]).tolist() == [0, 1, 2]


def test_inserted_and_deleted_lines_are_aligned_by_a_line_diff():
    draft = ["one", "two", "three", "four"]
    assert align(draft, ["one", "new", "two", "three", "four"]).tolist() == [0, NONE, 1, 2, 3]
    assert align(draft, ["one", "three", "four"]).tolist() == [0, 2, 3]
    # a replaced block pairs in order, the extra line is new
    assert align(draft, ["one", "TWO", "THREE", "extra", "four"]).tolist() == [0, 1, 2, NONE, 3]


def test_counts():
    t = DraftTrack(["a", "b", "c"], ["a", "B", "c", "d"])
    assert t.edited_count() == 2  # "B" changed, "d" new
    assert t.new_count() == 1 and t.deleted_count() == 0
    assert t.draft_line(1) == "b" and t.draft_line(3) is None


lines = st.lists(st.sampled_from(["a", "b", "c", "d", ""]), max_size=8)
edit = st.tuples(st.integers(0, 10), st.integers(0, 3), lines)


@settings(max_examples=300, deadline=None)
@given(lines, st.lists(edit, max_size=6))
def test_partners_follow_edits_as_a_list_of_origins_does(draft, edits):
    """Reference model: every current line carries its origin (draft index or
    None) through list splices; a replaced line keeps its origin in place."""
    current = list(draft)
    origins: list = list(range(len(draft)))
    track = DraftTrack(draft, current)
    for start, width, new in edits:
        start = min(start, len(current))
        end = min(start + width, len(current))
        keep = min(end - start, len(new))
        origins[start:end] = origins[start : start + keep] + [None] * (len(new) - keep)
        current[start:end] = new
        track.splice(start, end, new)
        want = [NONE if o is None else o for o in origins]
        assert track.partner.tolist() == want
        edited = sum(1 for o, line in zip(origins, current) if o is None or draft[o] != line)
        assert track.edited_count() == edited
        assert track.deleted_count() == len(draft) - len({o for o in origins if o is not None})


def test_a_track_built_in_steps_equals_one_built_at_once(monkeypatch):
    from bleu_ls.engine.lazytext import run
    from bleu_ls.postedit import track as track_mod

    monkeypatch.setattr(track_mod, "STEP_LINES", 3)
    draft = [f"l{i}" for i in range(10)]
    for current in (draft[:4] + ["x"] + draft[5:], ["new"] + draft[:7] + ["y"], []):
        a, b = DraftTrack(draft, current), run(DraftTrack.steps(draft, current))
        assert b.draft == a.draft and b.partner.tolist() == a.partner.tolist() and b.changed.tolist() == a.changed.tolist()
