import gc

from bleu_ls.server.background import heap


def test_settle_freezes_only_a_large_documents_heap():
    gc.unfreeze()
    try:
        assert not heap.settle(heap.FREEZE_LINES - 1)
        assert gc.get_freeze_count() == 0
        kept = [[i] for i in range(1000)]  # long-lived, tracked objects
        assert heap.settle(heap.FREEZE_LINES)
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_quiet_keeps_the_collector_off_until_the_last_overlapping_phase_ends():
    import threading

    gc.unfreeze()
    assert gc.isenabled()
    try:
        with heap.quiet(heap.FREEZE_LINES - 1):  # a small document: nothing changes
            assert gc.isenabled() and not heap.quieted()
        first = heap.quiet(heap.FREEZE_LINES)
        first.__enter__()
        assert not gc.isenabled() and heap.quieted()
        box = []

        def other_phase():  # a worker thread's phase, overlapping the first
            with heap.quiet(heap.FREEZE_LINES):
                box.append(gc.isenabled())

        t = threading.Thread(target=other_phase)
        t.start()
        t.join()
        assert box == [False]
        assert not gc.isenabled()  # the first phase still runs
        kept = [[i] for i in range(1000)]
        first.__exit__(None, None, None)
        assert gc.isenabled() and not heap.quieted()
        assert gc.get_freeze_count() >= len(kept)  # what the phases built is frozen
        try:
            with heap.quiet(heap.FREEZE_LINES):
                raise ValueError("a phase that fails")
        except ValueError:
            pass
        assert gc.isenabled() and not heap.quieted()
    finally:
        gc.unfreeze()
        gc.enable()
