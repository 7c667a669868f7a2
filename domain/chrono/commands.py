"""Chrono Corsairs: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

ID = {"type": "string", "maxLength": 40}
SLOT = {"enum": ["SUNRISE", "MORNING", "EVENING", "SUNSET"]}
PLACE = {"type": "string", "maxLength": 40}
TABLE = {
    "plans": {"type": "array", "items": ID, "maxItems": 20, "description": "table chance only: the Plan cards drawn"},
    "anomaly": {"type": "array", "items": ID, "maxItems": 9, "description": "table chance only: the Anomaly card turned up"},
    "artifacts": {"type": "array", "items": ID, "maxItems": 40, "description": "table chance only: the Artifact cards drawn"},
    "event_tokens": {"type": "array", "items": ID, "maxItems": 28, "description": "table chance only: the Event tokens flipped"},
}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_}, **(properties or {}), **TABLE}}


COMMAND_SCHEMAS = {
    "draw_plans": _cmd("draw_plans", "Phase 2: draw the Stable and Unstable Plan cards your cubes indicate."),
    "select_plan": _cmd("select_plan",
                        "Phase 2: secretly select one drawn card and the space it goes to; all are revealed together.",
                        {"card": ID, "slot": SLOT}, ["card", "slot"]),
    "perform_plan": _cmd("perform_plan", "Phase 3: perform the plan in the current space (its card or the pre-printed plan)."),
    "forgo_plan": _cmd("forgo_plan", "Phase 3: ignore the plan and collect 1 Doubloon instead."),
    "play_artifact": _cmd("play_artifact", "Phase 3: play one Artifact card from your hand, before or after the plan.",
                          {"artifact": ID}, ["artifact"]),
    "end_turn": _cmd("end_turn", "Phase 3: end your turn without playing an Artifact after the plan."),
    "do_step": _cmd("do_step", "Carry out the current step of an effect, with the choices it needs (see legal commands).",
                    {"option": {"type": "integer", "minimum": 0, "maximum": 20},
                     "value": {"type": "string", "maxLength": 40},
                     "owner": {"type": "integer", "minimum": 0, "maximum": 4},
                     "kind": {"enum": ["officer", "crew"]},
                     "from": PLACE, "to": PLACE, "at": PLACE,
                     "carry": {"type": "object", "additionalProperties": False, "required": ["officer", "crew"],
                               "properties": {"officer": {"type": "integer", "minimum": 0, "maximum": 2},
                                              "crew": {"type": "integer", "minimum": 0, "maximum": 11}}},
                     "artifact": ID, "track": {"enum": ["stable", "unstable"]}}),
    "skip_step": _cmd("skip_step", "Forgo the current step of a plan or artifact (never an 'all' part halfway)."),
    "choose_flag": _cmd("choose_flag", "Phase 5: move your Flag marker to a free position (0 = highest).",
                        {"position": {"type": "integer", "minimum": 0, "maximum": 4}}, ["position"]),
    "purchase": _cmd("purchase",
                     "Phase 6: buy one thing (move_plan 1, advance_cube 2, recruit 2, time_gem 3, artifact 5 Doubloons).",
                     {"item": {"enum": ["move_plan", "advance_cube", "recruit", "time_gem", "artifact"]},
                      "from": SLOT, "to": SLOT, "track": {"enum": ["stable", "unstable"]},
                      "kind": {"enum": ["crew", "officer"]}}, ["item"]),
    "done_outfitting": _cmd("done_outfitting", "Phase 6: finish your purchases; remaining Doubloons are discarded."),
}
