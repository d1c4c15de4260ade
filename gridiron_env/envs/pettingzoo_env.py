"""The PettingZoo AEC env: one game of Gridiron, two agents ``team_one`` (team 0) and ``team_two`` (team 1).

``raw_env`` is the generic AEC env (``gridiron_env.adapters.pettingzoo.GameAECEnv``) preset to Gridiron's
GameSpec; what follows is that env as Gridiron's spec fills it.

``gridiron_env.env(**options)`` is the env in PettingZoo's OrderEnforcingWrapper (PettingZoo's classic
games also add AssertOutOfBoundsWrapper, which would turn an out-of-range id into an AssertionError: here
such an id is an illegal action, handled by the env as below, wrapped or not); ``gridiron_env.raw_env
(**options)`` is unwrapped.

- ``agent_selection`` is the team to act (``state.to_act``). Turns do not alternate: a team often acts
  several times in a row (moves, then End turn), so always read ``agent_selection``.
- ``observe(agent)`` -> ``{"observation": ..., "action_mask": int8 [291]}`` from that agent's own side
  (it attacks "up"), for either agent at any time: ``observation`` is float32 [FEATURES_SIZE]
  (``observation="features"``) or ``{"planes": uint8 [C, 30, 18], "scalars": float32 [SCALARS_SIZE]}``
  (``"planes"``); ``action_mask`` is the engine's legal actions for the agent to act. It is never all
  zero: for the other agent, and for both once the game is over, it marks only id 0, "end turn" (a
  placeholder for masked samplers: that agent's step is not taken, or takes None once it is done). No
  observation shows a hidden ball or the other team's secret special.
- ``observation="flat"``: ``observe(agent)`` is one float32 Box [FEATURES_SIZE + 291] instead of the
  dict: the ``features`` then the same action mask as 0.0 / 1.0 (``FLAT_LAYOUT`` names the two slices),
  so that wrappers that take only a Box (SuperSuit's ``frame_stack_v1``, ``dtype_v0``,
  ``pettingzoo_env_to_vec_env_v1``) work; after a frame stack the current mask is the last 291 values.
- Rewards: +1 to the winner, -1 to the loser when the game ends (an illegal action included), 0 to both
  on truncation (``GameConfig.max_steps`` agent actions); ``score_reward_scale`` > 0 adds, on every step,
  that scale times the change of (own score - other score).
- Illegal actions: any action is accepted; an illegal one (or one outside 0..290, or not an int: a bool,
  which Python counts as an int, is not an action id either) ends the game as a loss for the team that
  played it, and both agents' ``infos`` hold ``"illegal_action": {"team", "action", "name", "reason"}``
  (``action`` as given). ``illegal_action="raise"`` raises IllegalActionError (a ValueError) instead
  (nothing changes). This holds for ``env()`` and ``raw_env()`` alike.
- After the game: both agents are done; as PettingZoo's API has it, ``step(None)`` removes the selected
  dead agent (any other action for a dead agent is a ValueError), and once both are removed any
  ``step`` raises RuntimeError (``env()`` warns instead, as OrderEnforcingWrapper does) until ``reset``.
- At the end both agents' infos hold ``"winner"`` (an agent name or None) and ``"score"`` (team one,
  team two).
- Seeding: ``reset(seed=s)`` plays the engine's game seeded s (= game i of a batch seeded s - i); a later
  ``reset()`` without a seed plays s + 1, s + 2, ... (the SelfPlayBatch rule with N = 1); a first
  ``reset()`` without any seed picks s at random. A seed is any int >= 0 taken modulo 2**64 (so s + 1
  wraps past 2**64 - 1 to 0); a negative or non-int seed is a ValueError. ``reset``'s ``options`` must
  be None or a dict; ``{"scenario": name}`` starts the game from a named scenario of
  ``gridiron_env.SCENARIOS`` (its open parts drawn from the game's seed; an unknown name is a ValueError
  listing the allowed ones); other entries are unused (PettingZoo's api_test passes some). The
  ``scenario`` option of the env starts every game from it.

``parallel_env(**options)`` is the same game as a PettingZoo ParallelEnv (PettingZoo's
``turn_based_aec_to_parallel`` over ``raw_env``): each ``step(actions)`` takes a dict of both agents'
actions and plays only that of the agent to act (its infos' ``"active_agent"``; the other agent's action is
ignored, so give it anything, e.g. its mask's one id); rewards are those of that one AEC step; once the game
is over ``agents`` is empty until ``reset``.

Options (keywords): ``render_mode`` (None, "human" prints the text board after each step, "ansi",
"rgb_array"), ``config`` (a GameConfig) and/or GameConfig fields (``target_score=7``, ...),
``observation`` ("features", "planes" or "flat"), ``illegal_action``, ``score_reward_scale``, ``offence_up`` (rendering only),
``scenario`` (a name of ``gridiron_env.SCENARIOS``: every game starts from it).
``game_state`` is the engine State (batch of one); ``set_state(state)`` continues from a given position.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from ..adapters.pettingzoo import GameAECEnv
from ..core import NUM_ACTIONS
from ..core.observe import FEATURES_SIZE
from ..gridiron.game import GAME

# the observation kinds the env takes: the generic AEC env's over Gridiron's spec ("flat": the features and
# the action mask in one Box, for wrappers that take no Dict space)
AEC_OBSERVATION_KINDS = ("features", *GAME.observation_kinds, "flat")
FLAT_SIZE = FEATURES_SIZE + NUM_ACTIONS
FLAT_LAYOUT = {"features": slice(0, FEATURES_SIZE), "action_mask": slice(FEATURES_SIZE, FLAT_SIZE)}


def env(**kwargs):
    """The AEC env in OrderEnforcingWrapper. Not AssertOutOfBoundsWrapper: an out-of-range id is an illegal
    action, which the env itself turns into a loss (or IllegalActionError), as the module doc says."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs):
    """The PettingZoo ParallelEnv of one game (``turn_based_aec_to_parallel`` over :class:`raw_env`; see
    the module docstring). ``parallel_env(observation="flat")`` gives the Box observations SuperSuit's
    wrappers need."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(raw_env(**kwargs))


class raw_env(GameAECEnv):
    """One game of Gridiron as a PettingZoo AEC env (see the module docstring): a preset of the generic AEC
    env (``gridiron_env.adapters.pettingzoo.GameAECEnv``) over Gridiron's GameSpec."""

    metadata = {**GameAECEnv.metadata, "name": "gridiron_v0"}
    preset_game = "gridiron"
