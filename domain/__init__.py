"""Parley's rules: one package per game, pure functions over plain data, no I/O."""
