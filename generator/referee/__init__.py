"""The referees' common contract: game records, replay, the prompt, the journal.

A game plugs in a RefereeRules: plain functions over its own state; this package does the rest
the same way for every game (see session.py).
"""
from .session import Refused, RefereeRules, TurnReport, names

__all__ = ["Refused", "RefereeRules", "TurnReport", "names"]
