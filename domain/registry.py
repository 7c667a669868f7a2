"""The rulesets Parley serves, by id."""
from __future__ import annotations


def all_rulesets() -> dict:
    from .chrono import RULESET as chrono
    from .corsairs import RULESET as corsairs
    from .league import RULESET as league
    from .tesoros import RULESET as tesoros
    from .valeria import CRIMSON_SEAS as crimson_seas
    from .valeria import RULESET as valeria

    return {r.id: r for r in (corsairs, league, tesoros, valeria, crimson_seas, chrono)}
