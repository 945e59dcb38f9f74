"""Deterministic tool backend of sizer-agent: pure functions with pydantic inputs and outputs.

This package never imports `sizer_agent`, `textual` or `vllm` (tests/test_import_hygiene.py enforces it);
hardware-bound imports (`pynvml`, `torch`) happen lazily inside the functions that need them.
"""

from sizer_agent.tools.errors import InputError

__all__ = ["InputError"]
