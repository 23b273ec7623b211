"""Santorini rules engine: god powers as data, one generic turn interpreter."""

__version__ = "0.1.0"
