"""The single source of bleucli's version, which every signature carries."""

__version__ = "0.4.0"
