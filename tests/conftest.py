"""Suite-wide settings."""

from __future__ import annotations

import os

from hypothesis import settings

# CI replays the same fuzz examples on every run (derandomize) so that a landing never depends on luck;
# local runs explore new examples. `HYPOTHESIS_PROFILE=explore` forces exploration in CI too.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "explore"))
