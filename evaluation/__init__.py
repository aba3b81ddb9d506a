"""Retrieval evaluation and benchmarks."""
