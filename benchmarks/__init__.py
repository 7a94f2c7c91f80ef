"""On-demand benchmark scripts (run each with ``python benchmarks/<name>.py``).

Results are reported in docs/benchmarks.md.
"""
