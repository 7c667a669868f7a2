"""The two effect interpreters are tables of handlers (issue 14): every construct the content
may use has one, so no card's power can fall through to nothing."""
from __future__ import annotations

from domain.chrono import effects as chrono_effects
from domain.chrono import setup as chrono_setup
from domain.kit import Section
from domain.valeria import effects as valeria_effects
from domain.valeria import setup as valeria_setup


def test_every_valeria_effect_kind_has_a_handler():
    kinds = set(valeria_setup.CONTENT_SCHEMA["$defs"]["effect"]["properties"])
    # offer_exekratys is the Roll Phase's rule [CS Roll Phase], not a card's: no content spells it
    assert set(valeria_effects._NODES) == kinds | {"offer_exekratys"}


def test_every_chrono_op_the_content_check_admits_has_a_handler():
    assert set(chrono_effects._OPS) == chrono_setup.OPS


def test_chrono_cites_phase_3_as_a_section():
    assert isinstance(chrono_effects.PHASE3, Section)
    assert chrono_effects.PHASE3 == "Phase 3: Run the Loop"
