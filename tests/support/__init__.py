"""Helpers shared by several test packages: real sessions made by the real tools."""
