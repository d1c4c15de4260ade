"""Agents for Sports Dice, in the agent protocol of ``agents/base.py`` (name, reset(seeds),
act(state, config, games)), and a match runner.

- ``OptimalAgent``: the exact solver's policy (``solve.py``), deterministic.
- ``RandomAgent``: a uniformly random legal action from one counter-based stream per game; as a policy
  (``action_probabilities``) it is the uniform mixed policy, which ``exact_win_probability`` evaluates.
- ``FixedAgent``: a simple stationary rule: choose offence at the toss, roll, on 4th down always make one
  declaration (default: go for it), always keep (or always use) the chip, play the first of a preference
  order among tied symbols, take the points on a FIELD GOAL at 50 or beyond (or always advance).
- ``ObservationAgent``: any function of (observation, legal mask), e.g. a trained network.
"""

from __future__ import annotations

import numpy as np

from ..solved_agents import MatchResult, SolutionAgent, UniformRandomAgent, play_match

from . import actions as A
from .config import SportsDiceConfig
from .engine import init, step
from .state import State

_SALT = 0x5D1C_E000_7BA1_0002


class OptimalAgent(SolutionAgent):
    """Plays the exact solution of its config (solved on first use, or given)."""

    config_class = SportsDiceConfig
    solver = "gridiron_env.sports_dice.solve"
    ignored_field = "max_rolls"  # the solution does not depend on the cap


class RandomAgent(UniformRandomAgent):
    """Uniform over the legal actions; game g's choice at its step t comes from its own stream."""

    salt = _SALT


DECLARATIONS = {"go": A.GO_FOR_IT, "punt": A.PUNT, "field goal": A.FIELD_GOAL}
OFFENCE_ORDER = (A.PLAY_TOUCHDOWN, A.PLAY_20, A.PLAY_FIELD_GOAL, A.PLAY_10)  # the first legal one is played
DEFENCE_ORDER = (A.PLAY_PICK_SIX, A.PLAY_TURNOVER, A.PLAY_SACK, A.PLAY_NO_GAIN)


class FixedAgent:
    """A stationary deterministic rule (module docstring). ``declaration``: "go", "punt" or "field goal";
    ``use_chip``: always use the chip on a tie (default: always keep it); ``advance``: always advance 25
    on a FIELD GOAL at 50 or beyond (default: take the points)."""

    def __init__(self, declaration: str = "go", use_chip: bool = False, advance: bool = False):
        if declaration not in DECLARATIONS:
            raise ValueError(f"FixedAgent declaration must be one of {list(DECLARATIONS)}, got {declaration!r}")
        if not isinstance(use_chip, bool) or not isinstance(advance, bool):
            raise ValueError("FixedAgent use_chip and advance must be True or False")
        self.declaration, self.use_chip, self.advance = declaration, use_chip, advance
        self.name = f"fixed({declaration}, {'use' if use_chip else 'keep'} chip, {'advance' if advance else 'take'})"

    def reset(self, seeds) -> None:
        pass

    def act(self, state: State, config: SportsDiceConfig | None = None, games=None) -> np.ndarray:
        legal = state.legal
        wanted = np.full((state.batch_size,), -1, dtype=np.int64)
        # in order of preference: the first legal action of this list is played
        prefs = [A.CHOOSE_OFFENCE, A.ROLL, DECLARATIONS[self.declaration],
                 A.USE_CHIP if self.use_chip else A.KEEP_CHIP, *OFFENCE_ORDER, *DEFENCE_ORDER,
                 A.ADVANCE if self.advance else A.TAKE_POINTS]
        for a in reversed(prefs):
            wanted = np.where(legal[:, a], a, wanted)
        return np.where(wanted >= 0, wanted, np.argmax(legal, axis=1)).astype(np.int64)


class ObservationAgent:
    """An agent from a function of observations (a trained network, for ``exact_win_probability`` and
    ``play_games``): ``predict(obs, mask) -> actions``, obs float32 [B, OBS_SIZE] as the team to act sees
    it (``observe``), mask bool [B, NUM_ACTIONS] its legal actions, actions int [B]. Only the asked games
    are passed on."""

    def __init__(self, predict, name: str = "observation policy"):
        if not callable(predict):
            raise ValueError(f"ObservationAgent needs a callable predict(obs, mask), got {type(predict).__name__}")
        self.predict, self.name = predict, name

    def reset(self, seeds) -> None:
        pass

    def act(self, state: State, config: SportsDiceConfig | None = None, games=None) -> np.ndarray:
        from .observe import observe

        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        if games.size:
            sub = state.take(games)
            obs = observe(sub, sub.to_act, config)
            out = np.asarray(self.predict(obs, sub.legal.copy())).astype(np.int64).reshape(-1)
            if out.shape != (games.size,):
                raise ValueError(f"predict gave {out.shape} actions for {games.size} games")
            actions[games] = out
        return actions


def play_games(agent_a, agent_b, n_games: int, seed: int = 0, config: SportsDiceConfig | None = None,
               a_team=None) -> MatchResult:
    """Play ``n_games`` full games of A against B in one batch: game i is seeded ``seed + i`` (its coin
    toss included); A plays team ``a_team[i]`` (default alternating 0, 1, ...)."""
    return play_match(init, step, config or SportsDiceConfig(), agent_a, agent_b, n_games, seed, a_team)
