"""Jinja templates of the proposal, shipped inside the wheel (read with importlib.resources)."""
