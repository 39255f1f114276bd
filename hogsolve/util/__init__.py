"""Foundations every layer may use: plain JSON values, Wilson intervals, progress, parallel tasks, atomic files,
resumable CSVs."""
