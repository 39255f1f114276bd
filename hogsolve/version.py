"""The package version, in one place (everything imports it from here)."""

__version__ = "0.1.0"
