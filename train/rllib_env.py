"""Gridiron as an RLlib multi-agent env for ``train.rllib_selfplay``: whole games cut into drives.

Needs ray (the ``rllib`` extra). The game is the project's PettingZoo AEC env (``gridiron_env.raw_env``,
features observation, ``illegal_action="raise"``); both teams are learners. Each RLlib episode is one
**segment** of a running game: it starts with a team on offence (``State.offence``, the team with the ball
at the snap: the one the bot's ``on_offence`` feature marks) and ends when the game ends, a new drive
starts (``State.drives`` changes) or the other team gets the offence. The next ``reset()`` goes on with the
same game (a new one once it is over, or when ``reset`` is given a seed), so the segments follow the real
course of games: kickoffs, punts, turnovers, specials, overtime.

Agents: ``"offence"`` (the segment's offence team) and ``"defence"`` (the other), mapped one to one to the
two policies, so each policy learns exactly the positions the exported bot's net of that name plays.
Observation: ``{"observations": float32 [FEATURES_SIZE], "action_mask": float32 [291]}`` (what RLlib's
``ActionMaskingTorchRLModule`` reads), only for the agent to act, except at the segment's end, when both
agents get their last one (RLlib bootstraps a truncated segment's value from it). Action: ``Discrete(291)``.

Rewards, the drive envs' (``GridironOffence-v0`` / ``GridironDefence-v0``): on every step each agent gets
its team's points minus the other team's points scored in that step; at a segment's end that hands the
ball over (the game goes on) the team that does not get it next gets ``+w * v`` and the other ``-w * v``,
``v`` = (rows the next offence must go to score, 1..24) / 24, ``w`` = ``field_position_weight``. The two
agents' rewards sum to zero. Ends: terminated (drive over or game won), truncated (the game's step cap).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from gridiron_env.config import GameConfig
from gridiron_env.core import NUM_ACTIONS
from gridiron_env.core.geometry import FIRST_FIELD_ROW, FRAME_ROW, N_LANES
from gridiron_env.envs.common import AGENTS, action_space, observation_space
from gridiron_env.envs.pettingzoo_env import raw_env
from gridiron_env.envs.vector import FIELD_ROWS

ROLES = ("offence", "defence")
ENV_NAME = "gridiron_drives"
ENV_OPTIONS = ("game", "field_position_weight")
# RLlib seeds sub-env i of env runner w with seed + w + i, so two runners' sub-envs can get the same seed:
# the game seed mixes in the runner's index to keep every sub-env's games distinct.
_RUNNER_STRIDE = 1_000_003


def rllib_observation_space() -> spaces.Dict:
    """The Dict space of :class:`GridironDrives`' observations (keys as ActionMaskingTorchRLModule wants)."""
    return spaces.Dict({"observations": observation_space("features"),
                        "action_mask": spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32)})


class GridironDrives(MultiAgentEnv):
    """See the module docstring. ``config`` (RLlib's env_config, a dict): ``game`` (GameConfig fields),
    ``field_position_weight`` (>= 0, default 0.5). The first game's seed is the one RLlib's first
    ``reset`` gives (mixed with the env runner's index), later games follow it (``raw_env``'s rule)."""

    def __init__(self, config: dict | None = None):
        super().__init__()
        runner = getattr(config, "worker_index", 0)  # an env runner's EnvContext; a plain dict has none
        config = dict(config or {})
        unknown = sorted(set(config) - set(ENV_OPTIONS), key=str)
        if unknown:
            raise ValueError(f"GridironDrives: unknown option(s) {unknown}; allowed: {list(ENV_OPTIONS)}")
        weight = config.get("field_position_weight", 0.5)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0.0 <= weight < float("inf"):
            raise ValueError(f"GridironDrives.field_position_weight must be a finite number >= 0, got {weight!r}")
        self.field_position_weight = float(weight)
        self.game_config = GameConfig.from_dict(dict(config.get("game") or {}))
        self._game = raw_env(config=self.game_config, observation="features", illegal_action="raise")
        self._runner = int(runner or 0)
        self.possible_agents = list(ROLES)
        self.agents = list(ROLES)
        space = rllib_observation_space()
        self.observation_spaces = {a: space for a in ROLES}
        self.action_spaces = {a: action_space() for a in ROLES}
        self._team = {}  # role -> team (0 or 1) of the current segment
        self._over = True  # no game running: the next reset starts one

    # --- the segment's bookkeeping

    @property
    def state(self):
        """The engine State of the running game (batch of one); read it, do not edit it."""
        return self._game.game_state

    def _begin_segment(self) -> None:
        s = self.state
        offence = int(s.offence[0])
        self._team = {"offence": offence, "defence": 1 - offence}
        self._drives = s.drives[0].copy()
        self.agents = list(ROLES)

    def _observation(self, role: str) -> dict:
        obs = self._game.observe(AGENTS[self._team[role]])
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}

    def _acting_role(self) -> str:
        team = int(self.state.to_act[0])
        return "offence" if team == self._team["offence"] else "defence"

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None or self._over:
            self._game.reset(seed=None if seed is None else int(seed) * _RUNNER_STRIDE + self._runner)
            self._over = False
        self._begin_segment()
        role = self._acting_role()
        return {role: self._observation(role)}, {}

    def step(self, action_dict: dict):
        role = self._acting_role()
        if role not in action_dict:
            raise ValueError(f"GridironDrives: {role} is to act, got actions for {sorted(action_dict)}")
        before = self.state.score[0].astype(np.int64)
        # illegal_action="raise": a masked policy never plays one, so one is a bug worth stopping for
        self._game.step(int(np.asarray(action_dict[role]).reshape(())))
        s = self.state
        gained = s.score[0].astype(np.int64) - before
        rewards = {r: float(gained[self._team[r]] - gained[1 - self._team[r]]) for r in ROLES}
        game_over = bool(s.to_act[0] < 0)
        handed_over = not game_over and (int(s.offence[0]) != self._team["offence"]
                                         or bool((s.drives[0] != self._drives).any()))
        if handed_over and self.field_position_weight:
            value = self.field_position_weight * self._field_position()
            for r in ROLES:  # + for the team that does not get the ball next, - for the one that does
                rewards[r] += -value if self._team[r] == int(s.offence[0]) else value
        truncated = game_over and bool(s.truncated[0])
        terminated = (game_over and not truncated) or handed_over
        if game_over:
            self._over = True
        if terminated or truncated:
            obs = {r: self._observation(r) for r in ROLES}  # the last ones: both agents are done
            self.agents = []
        else:
            nxt = self._acting_role()
            obs = {nxt: self._observation(nxt)}
        done = {r: terminated for r in ROLES}
        done["__all__"] = terminated
        cut = {r: truncated for r in ROLES}
        cut["__all__"] = truncated
        return obs, rewards, done, cut, {}

    def _field_position(self) -> float:
        """(rows the next offence must go to score, 1..24) / 24 for the current position."""
        s = self.state
        nxt = int(s.offence[0])
        los = int(FRAME_ROW[nxt, int(s.los_row[0]) * N_LANES])
        return (los - (FIRST_FIELD_ROW - 1)) / FIELD_ROWS


def policy_for(agent_id, episode=None, **kwargs) -> str:
    """RLlib's policy_mapping_fn: the agent ``"offence"`` plays the offence policy, ``"defence"`` the
    defence one (module level, so that remote env runners can import it)."""
    return agent_id


def quiet_ray_logs() -> None:
    """Only errors from RLlib's loggers (its API-stack notes and deprecation warnings are about RLlib's own
    example module, nothing a user can act on); the driver calls it and so does every worker at start
    (``runtime_env["worker_process_setup_hook"]``)."""
    import logging

    for name in ("ray.rllib", "ray._common.deprecation", "ray.tune"):
        logging.getLogger(name).setLevel(logging.ERROR)
