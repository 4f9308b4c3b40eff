"""Background work: thread pools at a lower priority, the batch scorer and its worker processes, garbage-collector and C-heap tuning, waiting on tasks."""
