"""The PettingZoo AEC env: one game of Gridiron, two agents ``team_one`` (team 0) and ``team_two`` (team 1).

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

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..config import GameConfig
from ..core import NUM_ACTIONS
from ..core import step as engine_step
from ..core.engine import recompute_legal
from ..core.observe import FEATURES_SIZE, OBS_HIGH, OBS_LOW
from ..core.state import State
from ..scenarios import get_scenario
from .common import (
    AGENTS, IGNORED_ROW_ACTION, ILLEGAL_ACTION_MODES, OBSERVATION_KINDS, SEED_MODULUS, action_space,
    check_choice, check_seed, encode, is_action_int, observation_space, render_game,
)
from .selfplay import (
    RENDER_MODES, advance, check_render_mode, check_scale, init_games, make_config, team_rewards,
)

# "flat": the features and the action mask in one Box (for wrappers that take no Dict space)
AEC_OBSERVATION_KINDS = OBSERVATION_KINDS + ("flat",)
FLAT_SIZE = FEATURES_SIZE + NUM_ACTIONS
FLAT_LAYOUT = {"features": slice(0, FEATURES_SIZE), "action_mask": slice(FEATURES_SIZE, FLAT_SIZE)}

_ENV_OPTIONS = ("render_mode", "config", "observation", "illegal_action", "score_reward_scale", "offence_up",
                "scenario")


def _action_id(action) -> int | None:
    """The int id of ``action`` (a Python or numpy int, or a one-element int array; maybe out of range);
    None for anything else (a bool, a float, None, ...)."""
    if is_action_int(action):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        return int(action.reshape(()))
    return None


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


class raw_env(AECEnv, EzPickle):
    """One game of Gridiron as a PettingZoo AEC env (see the module docstring)."""

    metadata = {
        "name": "gridiron_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, render_mode: str | None = None, *, config: GameConfig | None = None,
                 observation: str = "features", illegal_action: str = "lose", score_reward_scale: float = 0.0,
                 offence_up: bool = False, scenario: str | None = None, **config_fields):
        EzPickle.__init__(self, render_mode=render_mode, config=config, observation=observation,
                          illegal_action=illegal_action, score_reward_scale=score_reward_scale,
                          offence_up=offence_up, scenario=scenario, **config_fields)
        super().__init__()
        check_choice("observation", observation, AEC_OBSERVATION_KINDS)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if not isinstance(offence_up, bool):
            raise ValueError(f"offence_up must be True or False, got {offence_up!r}")
        self.config = make_config(config, config_fields, _ENV_OPTIONS)
        self.scenario = None if scenario is None else get_scenario(scenario)  # every game's start
        self.observation_kind = observation
        self.illegal_action = illegal_action
        self.score_reward_scale = check_scale(score_reward_scale)
        self.render_mode = check_render_mode(render_mode)
        self.offence_up = offence_up
        self._renderer = None

        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        # Spaces are built once: api_test requires the same object on every call (space seeding).
        if observation == "flat":
            low = np.concatenate([np.full(FEATURES_SIZE, OBS_LOW), np.zeros(NUM_ACTIONS)]).astype(np.float32)
            high = np.concatenate([np.full(FEATURES_SIZE, OBS_HIGH), np.ones(NUM_ACTIONS)]).astype(np.float32)
            self.observation_spaces = {a: spaces.Box(low, high, dtype=np.float32) for a in AGENTS}
        else:
            mask_space = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
            self.observation_spaces = {
                a: spaces.Dict({"observation": observation_space(observation), "action_mask": mask_space})
                for a in AGENTS
            }
        self.action_spaces = {a: action_space() for a in AGENTS}
        # the mask of an agent that is not to act: only the placeholder id (never an all-zero mask)
        self._idle_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._idle_mask[IGNORED_ROW_ACTION] = 1
        self._next_seed: int | None = None
        self.game_state: State | None = None
        self._cache = [None, None]  # each team's observation of the current state, computed on demand

    # --- spaces

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- reset / step

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """New game seeded ``seed`` (see the module docstring for ``seed=None``); ``options["scenario"]``
        starts it from a named scenario (other entries are unused)."""
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be None or a dict (its entries are unused), got {options!r}")
        scenario = (options or {}).get("scenario")
        scenario = self.scenario if scenario is None else get_scenario(scenario)
        if seed is not None:
            game_seed = check_seed(seed)
        elif self._next_seed is None:
            game_seed = int(np.random.SeedSequence().entropy) % (1 << 63)
        else:
            game_seed = self._next_seed
        self._next_seed = (game_seed + 1) % SEED_MODULUS
        seeds = np.array([game_seed], dtype=np.uint64)
        self._start(init_games(seeds, self.config) if scenario is None else scenario.build(seeds, self.config))

    def set_state(self, state: State) -> None:
        """Continue from ``state`` (a State of one game; copied, legal mask recomputed) as after a reset."""
        if not isinstance(state, State) or state.batch_size != 1:
            raise ValueError("state must be a State of one game (State.take(i) picks one of a batch)")
        state = state.copy()
        recompute_legal(state, self.config)
        self._start(state)

    def _start(self, state: State) -> None:
        self.game_state = state
        self._cache = [None, None]
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        to_act = int(state.to_act[0])
        self.agent_selection = AGENTS[to_act if to_act >= 0 else 0]
        if to_act < 0:  # a finished position: both agents are done at once
            self._finish(state, {})
        if self.render_mode == "human":
            self.render()

    def step(self, action) -> None:
        if self.game_state is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and both agents have been removed (stepped with None); "
                               "call reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:  # PettingZoo's rule (its own message does not say what to do)
                raise ValueError(f"{agent} is done (the game is over): the only valid action is None, which "
                                 f"removes it; got {action!r}. Call reset() to play again")
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        old = self.game_state
        a = _action_id(action)
        if a is not None and 0 <= a < NUM_ACTIONS and old.legal[0, a]:
            # a legal action (the usual case): what ``advance`` does with it, without its batch checks
            new, details = engine_step(old, np.array([a], dtype=np.int64), config=self.config), {}
        else:
            # not an id 0..290: stands in as -1, outside the action space; the info shows it as given
            given = np.empty(1, dtype=object)
            given[0] = action if a is None else a
            new, _illegal, details = advance(old, np.array([-1], dtype=np.int64), self.config, self.illegal_action,
                                             given=given)
        self.game_state = new
        self._cache = [None, None]
        to_act = int(new.to_act[0])
        if to_act >= 0:
            if self.score_reward_scale:
                r = team_rewards(old, new, np.zeros(1, bool), self.score_reward_scale)[0]
                self.rewards = {AGENTS[0]: float(r[0]), AGENTS[1]: float(r[1])}
            else:
                self.rewards = {AGENTS[0]: 0.0, AGENTS[1]: 0.0}
            self.agent_selection = AGENTS[to_act]
        else:
            r = team_rewards(old, new, np.ones(1, bool), self.score_reward_scale)[0]
            self.rewards = {AGENTS[0]: float(r[0]), AGENTS[1]: float(r[1])}
            self._finish(new, details.get(0))
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, state: State, illegal_info) -> None:
        """Mark both agents done and fill their end-of-game infos (the selected agent stays: it is done too)."""
        term, trunc = bool(state.terminated[0]), bool(state.truncated[0])
        self.terminations = {a: term for a in AGENTS}
        self.truncations = {a: trunc for a in AGENTS}
        w = int(state.winner[0])
        for a in AGENTS:
            info = {"winner": AGENTS[w] if w >= 0 else None,
                    "score": (int(state.score[0, 0]), int(state.score[0, 1]))}
            if illegal_info:
                info["illegal_action"] = dict(illegal_info)
            self.infos[a] = info

    # --- observations

    def observe(self, agent):
        if not (isinstance(agent, str) and agent in AGENTS):
            raise ValueError(f"agent must be one of {AGENTS}, got {agent!r}")
        if self.game_state is None:
            raise RuntimeError("call reset() before observe()")
        team = AGENTS.index(agent)
        obs = self._cache[team]
        if obs is None:  # once per state and team: the encoder is the costly part
            kind = "features" if self.observation_kind == "flat" else self.observation_kind
            obs = encode(self.game_state, team, kind, self.config)
            obs = obs[0] if kind == "features" else {k: v[0] for k, v in obs.items()}
            self._cache[team] = obs
        state = self.game_state
        mask = state.legal[0].astype(np.int8) if state.to_act[0] == team else self._idle_mask.copy()
        # copies: a caller editing its observation in place must not change the cached one
        if self.observation_kind == "flat":
            flat = np.empty(FLAT_SIZE, dtype=np.float32)
            flat[:FEATURES_SIZE] = obs
            flat[FEATURES_SIZE:] = mask
            return flat
        if self.observation_kind == "features":
            return {"observation": obs.copy(), "action_mask": mask}
        return {"observation": {k: v.copy() for k, v in obs.items()}, "action_mask": mask}

    # --- rendering

    def render(self):
        """"ansi": the text board (str); "rgb_array": an HxWx3 uint8 frame; "human": prints the text board."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to the env")
            return None
        return render_game(self, self.game_state, 0)

    def close(self) -> None:
        self._renderer = None
