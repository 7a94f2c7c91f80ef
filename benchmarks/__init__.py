"""On-demand benchmark scripts (run each with ``python benchmarks/<name>.py``; docs/benchmarks.md)."""
