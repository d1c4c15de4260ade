"""RULES.md and the code must agree: where they differ one of them is a bug."""

import re
from pathlib import Path

from gridiron_env.core import NUM_ACTIONS, State, action_id
from gridiron_env.core.formations import formations_markdown

RULES = (Path(__file__).resolve().parents[1] / "RULES.md").read_text()


def test_rules_md_draws_the_current_formations():
    assert formations_markdown() in RULES


def test_rules_md_action_examples_match_the_code():
    section = RULES[RULES.index("# Actions"):RULES.index("# State")]
    examples = re.findall(r"`([a-z][a-z_ ]*(?: [A-Za-z_0-9]+)*)` = (\d+)", section)
    assert len(examples) >= 10
    for name, number in examples:
        assert action_id(name) == int(number), name
    assert f"**{NUM_ACTIONS}** actions" in RULES


def test_rules_md_states_the_state_size():
    assert str(State.bytes_per_game()) in RULES


def test_rules_md_tables_the_current_observation():
    from gridiron_env.core.observe import observation_markdown

    assert observation_markdown() in RULES
