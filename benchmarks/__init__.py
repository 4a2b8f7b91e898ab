"""Side-by-side benchmarks: ``python -m benchmarks [--quick] [--only NAME ...]``."""
