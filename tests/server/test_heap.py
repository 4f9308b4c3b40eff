import gc

from bleu_ls.server import heap


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
