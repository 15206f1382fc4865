"""Metrics: each computes per-segment sufficient statistics and aggregates them."""
