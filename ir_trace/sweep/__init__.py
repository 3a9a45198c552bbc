"""Regression sweeps without Luigi: finding programs, their traces, sweep.json, the index page."""
