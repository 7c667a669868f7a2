"""Disputes: the hash chain over a game's log, its export, and re-adjudication from scratch.

Nothing here imports Flask or the event store: `parley verify` and `parley replay` run on an
export file alone, with the rules in domain/. docs/disputes.md describes the formats.
"""
