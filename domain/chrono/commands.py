"""Chrono Corsairs: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

from .legal import DESCRIPTIONS

ID = {"type": "string", "maxLength": 40}
SLOT = {"enum": ["SUNRISE", "MORNING", "EVENING", "SUNSET"]}
PLACE = {"type": "string", "maxLength": 40}


def _(schema: dict, description: str) -> dict:
    return {**schema, "description": description}

TABLE = {
    "plans": {"type": "array", "items": ID, "maxItems": 20,
              "description": "table chance only: " + DESCRIPTIONS["plans"]},
    "anomaly": {"type": "array", "items": ID, "maxItems": 9,
                "description": "table chance only: " + DESCRIPTIONS["anomaly"]},
    "artifacts": {"type": "array", "items": ID, "maxItems": 40,
                  "description": "table chance only: " + DESCRIPTIONS["artifacts"]},
    "event_tokens": {"type": "array", "items": ID, "maxItems": 28,
                     "description": "table chance only: " + DESCRIPTIONS["event_tokens"]},
}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_, "description": f"the command: '{type_}'"}, **(properties or {}),
                           **TABLE}}


COMMAND_SCHEMAS = {
    "draw_plans": _cmd("draw_plans", "Phase 2: draw the Stable and Unstable Plan cards your cubes indicate."),
    "select_plan": _cmd("select_plan",
                        "Phase 2: secretly select one drawn card and the space it goes to; all are revealed together.",
                        {"card": _(ID, "one of the Plan cards you drew"),
                         "slot": _(SLOT, "the space of your Ship mat it goes to")}, ["card", "slot"]),
    "perform_plan": _cmd("perform_plan", "Phase 3: perform the plan in the current space (its card or the pre-printed plan)."),
    "forgo_plan": _cmd("forgo_plan", "Phase 3: ignore the plan and collect 1 Doubloon instead."),
    "play_artifact": _cmd("play_artifact", "Phase 3: play one Artifact card from your hand, before or after the plan.",
                          {"artifact": _(ID, "the Artifact card from your hand")}, ["artifact"]),
    "end_turn": _cmd("end_turn", "Phase 3: end your turn without playing an Artifact after the plan."),
    "do_step": _cmd("do_step", "Carry out the current step of an effect, with the choices it needs (see legal commands).",
                    {"option": {"type": "integer", "minimum": 0, "maximum": 20,
                                "description": "a choice step: the option taken, 0 the first"},
                     "value": {"type": "string", "maxLength": 40,
                               "description": "a step that picks one value of several (a space, ...): the one picked "
                                              "(legal commands list them)"},
                     "owner": {"type": "integer", "minimum": 0, "maximum": 4,
                               "description": "the seat whose pirate the step moves or removes"},
                     "kind": {"enum": ["officer", "crew"], "description": "the kind of pirate"},
                     "from": _(PLACE, "a move: the space the pirate leaves; rearranging plans: the space the plan "
                                      "leaves"),
                     "to": _(PLACE, "a move: the space the pirate enters; rearranging plans: the space the plan "
                                    "goes to"),
                     "at": _(PLACE, "a removal: the space of the pirate removed"),
                     "carry": {"type": "object", "additionalProperties": False, "required": ["officer", "crew"],
                               "description": "an Officer's move: the pirates it carries along",
                               "properties": {"officer": {"type": "integer", "minimum": 0, "maximum": 2,
                                                          "description": "Officers carried"},
                                              "crew": {"type": "integer", "minimum": 0, "maximum": 11,
                                                       "description": "Crew carried"}}},
                     "artifact": _(ID, "a step that loses an Artifact: the one from your hand"),
                     "track": {"enum": ["stable", "unstable"], "description": "a cube advanced: its track"}}),
    "skip_step": _cmd("skip_step", "Forgo the current step of a plan or artifact (never an 'all' part halfway); "
                      "halfway through a move of several pieces, stop the moving piece where it stands: "
                      "the others may still move, and skip_step again forgoes them (CP-4)."),
    "choose_flag": _cmd("choose_flag", "Phase 5: move your Flag marker to a free position (0 = highest).",
                        {"position": {"type": "integer", "minimum": 0, "maximum": 4,
                                      "description": "the Flag position taken, 0 the highest"}}, ["position"]),
    "purchase": _cmd("purchase",
                     "Phase 6: buy one thing (move_plan 1, advance_cube 2, recruit 2, time_gem 3, artifact 5 Doubloons).",
                     {"item": {"enum": ["move_plan", "advance_cube", "recruit", "time_gem", "artifact"],
                               "description": "what is bought"},
                      "from": _(SLOT, "move_plan: the space the plan leaves"),
                      "to": _(SLOT, "move_plan: the space it goes to"),
                      "track": {"enum": ["stable", "unstable"], "description": "advance_cube: the track"},
                      "kind": {"enum": ["crew", "officer"], "description": "recruit: the kind of pirate"}}, ["item"]),
    "done_outfitting": _cmd("done_outfitting", "Phase 6: finish your purchases; remaining Doubloons are discarded."),
}
