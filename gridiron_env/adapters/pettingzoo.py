"""The PettingZoo AEC env of any game: one game, two agents ``team_one`` (team 0) and ``team_two`` (team 1).

``env(game, **options)`` is the env in PettingZoo's OrderEnforcingWrapper (not AssertOutOfBoundsWrapper:
an out-of-range id is an illegal action, handled as below); ``raw_env(game, **options)`` is unwrapped;
``parallel_env`` is PettingZoo's ``turn_based_aec_to_parallel`` of it.

- ``agent_selection`` is the team to act (``game.to_act``); turns need not alternate, so read it.
- ``observe(agent)`` -> ``{"observation": float32 [obs size], "action_mask": int8 [A]}`` from that
  agent's own side, for either agent at any time. The mask is the legal actions for the agent to act;
  for the other agent, and for both once the game is over, only ``game.ignored_action`` (never all zero).
  ``observation="flat"`` gives one float32 Box [obs size + A] instead: the observation, then the same mask
  as 0.0 / 1.0, for wrappers that take no Dict space (SuperSuit's ``frame_stack_v1``, ``dtype_v0``).
- Rewards: +1 to the winner and -1 to the loser when the game ends (an illegal action included); 0 to both
  for a draw and on truncation (the game's own cap).
- Illegal actions: any action is accepted; an illegal one (an int outside the space, a bool, a non-int)
  ends the game as a loss for the team that played it, both agents' infos holding ``"illegal_action":
  {"team", "action", "name", "reason"}``; ``illegal_action="raise"`` raises the game's ``illegal_error``
  (a ValueError) instead and changes nothing.
- At the end both agents' infos hold ``"winner"`` (an agent name, or None for a draw or a truncation),
  ``"draw"`` (bool; not for a game with ``draws=False``) and ``"score"`` (team one's, team two's). As PettingZoo has it, ``step(None)`` then
  removes the selected dead agent (another action for a dead agent is a ValueError); once both are
  removed ``step`` raises RuntimeError until ``reset``.
- Seeding: ``reset(seed=s)`` plays the engine's game seeded s; a later ``reset()`` without a seed plays
  s + 1, s + 2, ...; a first ``reset()`` without a seed picks s at random. Seeds: ints >= 0 mod 2**64.

Options: ``render_mode`` (None, "human" prints the text picture after each step, "ansi", "rgb_array"),
``variant``, ``config`` (the game's config, or None: the variant's default) and/or config fields as keywords,
``illegal_action``, ``observation`` ("features", the dict above, "flat", or a kind of the game's
``GameSpec.observation_kinds``, in the dict's ``"observation"``), ``score_reward_scale`` (a game with
``score_unit``: each step adds c * the change of team one's score margin to team one and takes it from
team two), ``offence_up`` (a game with ``orientation``: pictures turned with the offence), ``scenario`` (a name of the
game's ``GameSpec.scenarios``: every game starts from that position; ``reset(options={"scenario": name})``
starts one game from it, its open parts drawn from the seed; an unknown name is a ValueError listing the
allowed ones). ``game_state`` is the engine state (a batch of one); ``set_state(state)`` continues from a
given position.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..protocol import get_game
from .common import (
    AGENTS, ILLEGAL_ACTION_MODES, RENDER_MODES, SEED_MODULUS, check_choice, check_offence_up, check_render_mode,
    check_score_scale, check_seed, forfeit_note, get_scenario, illegal_entry, is_action_int, new_games,
    observation_encoder, observation_kinds,
)
from .vector import observation_space

__all__ = ["GameAECEnv", "raw_env", "env", "parallel_env"]

AEC_RENDER_MODES = ("human",) + RENDER_MODES
OBSERVATION_KINDS = ("features", "flat")  # and the game's own kinds (GameSpec.observation_kinds)


def _action_id(action):
    """The int id of ``action`` (maybe out of range), or None for a bool, a float, None, ..."""
    if is_action_int(action):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        return int(action.reshape(()))
    return None


class GameAECEnv(AECEnv, EzPickle):
    """One game of ``game`` as a PettingZoo AEC env (see the module docstring)."""

    metadata = {"name": "game_v0", "render_modes": list(AEC_RENDER_MODES), "is_parallelizable": False,
                "render_fps": 4}
    # A preset subclass fixes its game here (and its metadata name): ``game`` may then only repeat it.
    preset_game = None

    def __init__(self, render_mode=None, *, game=None, variant="basic", config=None,
                 illegal_action="lose", observation="features", scenario=None, score_reward_scale=0.0,
                 offence_up=False, **config_fields):
        if self.preset_game is not None:
            if game is not None and game != self.preset_game:
                raise ValueError(f"{type(self).__name__} plays {self.preset_game!r}; got game={game!r}")
            game = self.preset_game
        elif game is None:
            game = "table_football"
        EzPickle.__init__(self, render_mode=render_mode, game=game, variant=variant, config=config,
                          illegal_action=illegal_action, observation=observation, scenario=scenario,
                          score_reward_scale=score_reward_scale, offence_up=offence_up, **config_fields)
        super().__init__()
        self.game = get_game(game)
        self.scenario = None if scenario is None else get_scenario(self.game, scenario)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        check_choice("observation", observation, OBSERVATION_KINDS + observation_kinds(self.game)[1:])
        self.observation_kind = observation
        self._encode = observation_encoder(self.game, "features" if observation == "flat" else observation)
        self.score_reward_scale = check_score_scale(self.game, score_reward_scale)
        self.offence_up = check_offence_up(self.game, offence_up)
        if not (config is None or isinstance(config, self.game.config_class)):
            # one way to give fields: as keywords (``raw_env(target_score=9)``), over ``config`` or the default
            raise ValueError(f"config must be a {self.game.config_class.__name__} or None (give its fields as "
                             f"keywords), got {type(config).__name__}")
        if config_fields:
            if config is None:
                config = dict(config_fields)
            else:
                config = ({**config.to_dict(), **config_fields} if hasattr(config, "to_dict")
                          else config.replace(**config_fields))  # (a config without to_dict lost the fields)
        self.config = self.game.make_config(config, variant)
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode, AEC_RENDER_MODES)
        self.metadata = {**type(self).metadata, "name": f"{self.game.name}_v0"}
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        # built once: api_test wants the same space object on every call
        mask_space = spaces.Box(0, 1, (self.game.num_actions,), np.int8)
        if observation == "flat":
            features, A = observation_space(self.game), self.game.num_actions
            flat = spaces.Box(np.concatenate([features.low, np.zeros(A, np.float32)]),
                              np.concatenate([features.high, np.ones(A, np.float32)]), dtype=np.float32)
            self.observation_spaces = {a: flat for a in AGENTS}
        else:
            self.observation_spaces = {a: spaces.Dict({"observation": observation_space(self.game, observation),
                                                       "action_mask": mask_space}) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in AGENTS}
        self._idle_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._idle_mask[self.game.ignored_action] = 1
        self._next_seed = None
        self.game_state = None
        self._forfeit_winner = -1
        self._cache = [None, None]

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- reset / step

    def reset(self, seed=None, options=None) -> None:
        """A new game seeded ``seed`` (see the module docstring). ``options`` (None or a dict): its
        ``"scenario"`` starts the game from a named position; other entries are unused."""
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be None or a dict (its entries are unused), got {options!r}")
        scenario = (options or {}).get("scenario")
        scenario = self.scenario if scenario is None else get_scenario(self.game, scenario)
        if seed is not None:
            game_seed = check_seed(seed)
        elif self._next_seed is None:
            game_seed = int(np.random.SeedSequence().entropy) % (1 << 63)
        else:
            game_seed = self._next_seed
        self._next_seed = (game_seed + 1) % SEED_MODULUS
        self._start(new_games(self.game, np.array([game_seed], dtype=np.uint64), self.config, scenario))

    def set_state(self, state) -> None:
        """Continue from ``state`` (a valid state of one game; copied) as after a reset."""
        game = self.game
        if not isinstance(state, game.state_class) or game.batch_size(state) != 1:
            raise ValueError(f"state must be a {game.state_class.__name__} of one game")
        try:
            game.check_invariants(state, self.config)
        except Exception as err:
            raise ValueError(f"state is not a valid position of this config: {err}") from err
        self._start(game.copy(state))

    def _start(self, state) -> None:
        self.game_state = state
        self._forfeit_winner = -1
        self._cache = [None, None]
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        to_act = int(self.game.to_act(state)[0])
        self.agent_selection = AGENTS[max(to_act, 0)]
        if to_act < 0:  # a finished position: both agents are done at once
            self._finish(state, None)
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
            if action is not None:
                raise ValueError(f"{agent} is done (the game is over): the only valid action is None, which "
                                 f"removes it; got {action!r}. Call reset() to play again")
            self._was_dead_step(action)
            return
        game, team = self.game, AGENTS.index(agent)
        self._cumulative_rewards[agent] = 0.0
        a = _action_id(action)
        legal = game.legal_mask(self.game_state)[0]
        illegal = None
        score_before = game.score(self.game_state)[0] if self.score_reward_scale else None
        if a is not None and 0 <= a < game.num_actions and legal[a]:
            self.game_state = game.step(self.game_state, np.array([a], dtype=np.int64), self.config)
        else:
            given = action if a is None else a
            illegal = {"team": agent, **illegal_entry(game, self.game_state, 0, given, team)}
            if self.illegal_action == "raise":
                raise game.illegal_error(f"{agent}: {illegal['reason']}", game=0, action=illegal["action"],
                                         legal_actions=[game.action_names[i] for i in np.flatnonzero(legal)])
            self._forfeit_winner = 1 - team
            if game.forfeit is not None:
                game.forfeit(self.game_state, np.array([0]), np.array([team]), self.config)
        self._cache = [None, None]
        to_act = int(game.to_act(self.game_state)[0])
        if illegal is None and to_act >= 0:
            self.rewards = {a_: 0.0 for a_ in AGENTS}
            self.agent_selection = AGENTS[to_act]
        else:
            self._finish(self.game_state, illegal)
        if score_before is not None:
            self._shape(score_before)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _shape(self, score_before) -> None:
        """Score shaping (``score_reward_scale`` c): c * (the step's change of team one's margin) to team
        one, minus that to team two, in float32 as the policies train on them."""
        delta = (self.game.score(self.game_state)[0].astype(np.float32) - score_before.astype(np.float32)) \
            @ np.array([1.0, -1.0], np.float32)
        rewards = np.array([self.rewards[AGENTS[0]], self.rewards[AGENTS[1]]], dtype=np.float32)
        rewards[0] += self.score_reward_scale * delta
        rewards[1] -= self.score_reward_scale * delta
        self.rewards = {AGENTS[0]: float(rewards[0]), AGENTS[1]: float(rewards[1])}

    def _finish(self, state, illegal) -> None:
        """Both agents done, with their rewards and end-of-game infos of ``state`` (the game's state now;
        ``illegal``: the info of the illegal action that ended it, or None); the selected agent stays."""
        game, s = self.game, state
        if self._forfeit_winner >= 0:
            term, trunc, w = True, False, self._forfeit_winner
        else:
            term, trunc, w = bool(game.terminated(s)[0]), bool(game.truncated(s)[0]), int(game.winner(s)[0])
        self.terminations = {a: term for a in AGENTS}
        self.truncations = {a: trunc for a in AGENTS}
        won = w in (0, 1) and term
        self.rewards = {a: (1.0 if i == w else -1.0) if won else 0.0 for i, a in enumerate(AGENTS)}
        score = game.score(s)[0]
        for a in AGENTS:
            info = {"winner": AGENTS[w] if won else None}
            if game.draws:
                info["draw"] = bool(term and w == game.draw_value)
            info["score"] = (int(score[0]), int(score[1]))
            if illegal:
                info["illegal_action"] = dict(illegal)
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
            obs = self._encode(self.game_state, team, self.config)
            obs = {k: v[0] for k, v in obs.items()} if isinstance(obs, dict) else obs[0]
            self._cache[team] = obs
        s = self.game_state
        acting = int(self.game.to_act(s)[0]) == team and self._forfeit_winner < 0
        mask = self.game.legal_mask(s)[0].astype(np.int8) if acting else self._idle_mask.copy()
        if self.observation_kind == "flat":
            return np.concatenate([obs, mask.astype(np.float32)])
        # copies: a caller editing its observation in place must not change the cached one
        copy = {k: v.copy() for k, v in obs.items()} if isinstance(obs, dict) else obs.copy()
        return {"observation": copy, "action_mask": mask}

    # --- rendering

    def render(self):
        """"ansi": the text picture (str); "rgb_array": uint8 [H, W, 3]; "human": prints the text picture."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to the env")
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        turn = {"offence_up": self.offence_up} if self.game.orientation else {}
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.game_state, 0, **turn)
        text = self.game.render_ansi(self.game_state, 0, **turn)
        if self._forfeit_winner >= 0 and self.game.forfeit is None:  # else the state shows the forfeit
            text += "\n" + forfeit_note(self._forfeit_winner)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game="table_football", **options) -> GameAECEnv:
    return GameAECEnv(game=game, **options)


def env(game="table_football", **options):
    """The AEC env in OrderEnforcingWrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, **options))


def parallel_env(game="table_football", **options):
    """The parallel API over the AEC env (PettingZoo's ``turn_based_aec_to_parallel``): each step takes
    both agents' actions and plays the one of the agent to act."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(raw_env(game, **options))
