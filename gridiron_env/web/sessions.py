"""Games the server runs: the engine state, who plays each seat (a person or an agent), the record.

A :class:`GameSession` is one game of batch size 1. ``mode`` is ``single`` (a person against an agent),
``hotseat`` (two people at one screen: the page always shows the team to act, so the specials pick stays
secret from the other), or ``watch`` (two agents; the page is a spectator). Agents run in the server:
the shipped bot (``bot:easy``, ``bot:medium``, ``bot:hard``), ``heuristic``, ``random`` and the panel
(``panel:<name>``).

Nothing here trusts the page: :meth:`GameSession.play` takes an action id only when a person is to act,
the turn counter matches and the action is legal; anything else raises :class:`GameError` and changes
nothing. Each reply is a list of *frames*, one per action taken (the person's and the agents' that
follow), each a view (:func:`views.view_of`) from the seat the page shows, with the action and what it
did (touchdown, interception, fumble, first down, ...) in words that never reveal hidden information.
"""

from __future__ import annotations

import importlib.util
import secrets
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core.engine import init, step
from gridiron_env.core.state import SPECIALS_PICK, State
from gridiron_env.core.visibility import team_view

from . import records as R
from .views import SPECTATOR, TEAM_WORDS, view_of

SHIPPED_BOT = Path(importlib.util.find_spec("gridiron_env").submodule_search_locations[0]) / "data" / "bot.npz"
MODES = ("single", "hotseat", "watch")
MAX_AGENT_ACTIONS_PER_REPLY = 300  # a reply stops there (the page asks for more with "advance")
_MAX_SEED = 2**64 - 1


class GameError(ValueError):
    """A request the game refuses (not your turn, an illegal action, ...). Nothing was changed."""


# --------------------------------------------------------------------------------------------- agents

class AgentFactory:
    """Makes fresh agents from specs; the shipped bot's weights are read once (pure numpy, read-only, so
    the games' agents share them)."""

    def __init__(self, bot_path: Path | None = SHIPPED_BOT):
        self._bot = None
        self._bot_error = None
        self._lock = threading.Lock()
        self.bot_path = bot_path

    def _shipped_bot(self):
        with self._lock:
            if self._bot is None and self._bot_error is None:
                from agents.bot import Bot, BotFileError

                if self.bot_path is None or not Path(self.bot_path).is_file():
                    self._bot_error = f"no bot file at {self.bot_path}"
                else:
                    try:
                        self._bot = Bot.load(self.bot_path)
                    except (BotFileError, OSError) as err:
                        self._bot_error = str(err)
            return self._bot

    def specs(self) -> list[dict]:
        """Every agent spec with its label, and whether it can be played here (the bot needs its file)."""
        from agents.panel import PANEL

        bot = self._shipped_bot()
        out = []
        for level in ("easy", "medium", "hard"):
            out.append({"spec": f"bot:{level}", "label": f"bot ({level})", "available": bot is not None,
                        "note": "" if bot is not None else self._bot_error})
        out.append({"spec": "heuristic", "label": "heuristic", "available": True, "note": ""})
        for name in PANEL:
            out.append({"spec": f"panel:{name}", "label": f"panel: {name.replace('_', ' ')}", "available": True,
                        "note": ""})
        out.append({"spec": "random", "label": "random", "available": True, "note": ""})
        return out

    def labels(self) -> dict[str, str]:
        return {s["spec"]: s["label"] for s in self.specs()}

    def make(self, spec: str):
        """A fresh agent for ``spec``; GameError for an unknown or unavailable one."""
        from agents.panel import PANEL

        kind, _, arg = spec.partition(":")
        if kind == "bot" and arg in ("easy", "medium", "hard"):
            bot = self._shipped_bot()
            if bot is None:
                raise GameError(f"the shipped bot cannot be played here: {self._bot_error}")
            from agents.bot import BotAgent

            return BotAgent(bot, name=f"bot ({arg})", temperature=bot.levels[arg])
        if spec == "heuristic":
            from agents.heuristic import HeuristicAgent

            return HeuristicAgent()
        if spec == "random":
            from agents.random_agent import RandomAgent

            return RandomAgent()
        if kind == "panel" and arg in PANEL:
            return PANEL[arg]()
        known = ", ".join(s["spec"] for s in self.specs())
        raise GameError(f"unknown opponent {spec!r}; choose one of: {known}"[:400])


# --------------------------------------------------------------------------------------------- settings

@dataclass(frozen=True)
class Settings:
    """A new game's settings, already checked (``server.protocol`` checks the page's message)."""

    mode: str = "single"
    team: int = 0  # single: the person's team
    opponent: str = "bot:hard"  # single: the other seat
    agents: tuple[str, str] = ("heuristic", "bot:hard")  # watch: team one's and team two's agents
    target_score: int = 21
    specials: bool = True
    kick_mode: str = "dice"
    seed: int | None = None


# --------------------------------------------------------------------------------------------- events

def describe_step(before: State, after: State, action: int, team: int, viewer: int) -> dict:
    """What one step did, as the frame's caption: the action's name (a special picked while the pick is
    still secret from ``viewer`` shows as a secret) and banners for what happened
    (``gridiron_env.events.play_events``, the one implementation the rgb render's banners use too). Built
    only from what both teams may see."""
    from ..events import play_events

    kind = int(A.ACTION_KIND[action])
    secret = (kind == A.KIND_SPECIAL and int(after.phase[0]) == SPECIALS_PICK and viewer != team)
    name = "picks a special player (secret until both have picked)" if secret else A.ACTION_NAMES[action]
    return {"team": team, "action": None if secret else int(action), "name": name,
            "banners": play_events(before, after, action)}


# --------------------------------------------------------------------------------------------- session

class GameSession:
    """One game in the server (see the module docstring)."""

    def __init__(self, game_id: str, settings: Settings, factory: AgentFactory, records_dir: Path | None = None):
        if settings.mode not in MODES:
            raise GameError(f"mode must be one of {list(MODES)}, got {settings.mode!r}")
        self.id = game_id
        self.settings = settings
        self.mode = settings.mode
        self.config = GameConfig(target_score=settings.target_score, specials=settings.specials,
                                 kick_mode=settings.kick_mode)
        self.seed = secrets.randbelow(2**63) if settings.seed is None else int(settings.seed)
        if not 0 <= self.seed <= _MAX_SEED:
            raise GameError(f"seed must be an int from 0 to 2**64 - 1, got {self.seed}")
        labels = factory.labels()
        if self.mode == "single":
            specs = [None, None]
            specs[1 - settings.team] = settings.opponent
        elif self.mode == "hotseat":
            specs = [None, None]
        else:
            specs = list(settings.agents)
        self.seats = [None if s is None else factory.make(s) for s in specs]
        for agent in self.seats:
            if agent is not None:
                agent.reset(np.array([self.seed], dtype=np.uint64))
        self.labels = [labels[s] if s is not None else "you" if self.mode == "single" else f"player {TEAM_WORDS[t]}"
                       for t, s in enumerate(specs)]
        self.human_team = settings.team if self.mode == "single" else None
        self.state = init(1, seed=self.seed, config=self.config)
        self.actions: list[int] = []
        self.stopped = False
        self.records_dir = Path(records_dir) if records_dir is not None else None
        self.record_path = None
        self.record_error = None
        if self.records_dir is not None:
            stamp = R.datetime.now(R.timezone.utc).strftime("%Y%m%d-%H%M%S")
            self.record_path = self.records_dir / f"gridiron-{stamp}-{game_id}.json"
        self.lock = threading.Lock()  # one request at a time per game, whatever thread serves it

    # --- who sees what -----------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return bool(self.state.terminated[0] or self.state.truncated[0]) or self.stopped

    def viewer(self, state: State | None = None) -> int:
        """The seat the page shows: the person's team; in hot seat the team to act; else a spectator."""
        state = self.state if state is None else state
        if self.mode == "single":
            return self.human_team
        if self.mode == "hotseat":
            to_act = int(state.to_act[0])
            return to_act if to_act >= 0 else SPECTATOR
        return SPECTATOR

    def person_to_act(self) -> bool:
        if self.over:
            return False
        return self.seats[int(self.state.to_act[0])] is None

    def frame(self, state: State | None = None, caption: dict | None = None, options: bool = True) -> dict:
        state = self.state if state is None else state
        viewer = self.viewer(state)
        with_options = options and not self.stopped and viewer >= 0 and self.seats[viewer] is None \
            and int(state.to_act[0]) == viewer
        view = view_of(state, viewer, self.config, with_options)
        view["stopped"] = self.stopped
        return {"view": view, "caption": caption}

    def summary(self) -> dict:
        """The game's public facts (no seed: with it the page could predict the dice)."""
        return {"game": self.id, "mode": self.mode, "seats": self.labels, "human_team": self.human_team,
                "config": {"target_score": self.config.target_score, "specials": self.config.specials,
                           "kick_mode": self.config.kick_mode, "longest_punt": self.config.longest_punt}}

    # --- acting ------------------------------------------------------------------------------------------

    def _step(self, action: int) -> dict:
        before = self.state
        team = int(before.to_act[0])
        after = step(before, np.array([action], dtype=np.int64), config=self.config)
        self.state = after
        self.actions.append(int(action))
        return describe_step(team_view(before, None, -1), team_view(after, None, -1), action, team,
                             self.viewer(after))

    def play(self, action, turn) -> list[dict]:
        """The person to act plays ``action`` (an id) chosen on the view of step count ``turn``; then the
        agents play until a person is to act again (or the reply's cap). Returns the frames."""
        if self.over:
            raise GameError(f"game {self.id} is over" + (" (stopped)" if self.stopped else ""))
        if not self.person_to_act():
            team = int(self.state.to_act[0])
            raise GameError(f"not your turn in game {self.id}: team {TEAM_WORDS[team]} "
                            f"({self.labels[team]}) is to act")
        if turn != int(self.state.steps[0]):
            raise GameError(f"out of turn in game {self.id}: that action was chosen at step {turn}, "
                            f"the game is at step {int(self.state.steps[0])}")
        if not bool(self.state.legal[0, action]):
            raise GameError(f"'{A.ACTION_NAMES[action]}' (action {action}) is not legal now in game {self.id}")
        caption = self._step(action)
        frames = [self.frame(caption=caption, options=False)]
        frames += self.run_agents(MAX_AGENT_ACTIONS_PER_REPLY)
        frames[-1] = self.frame(caption=frames[-1]["caption"])
        self.save()
        return frames

    def run_agents(self, limit: int) -> list[dict]:
        """Up to ``limit`` agent actions, stopping when a person is to act or the game ends."""
        frames = []
        while len(frames) < limit and not self.over and not self.person_to_act():
            team = int(self.state.to_act[0])
            agent = self.seats[team]
            try:
                out = agent.act(self.state, self.config, games=np.array([0]))
                action = int(np.asarray(out).reshape(-1)[0])
                problem = None if 0 <= action < A.NUM_ACTIONS and bool(self.state.legal[0, action]) else \
                    f"chose an illegal action ({action})"
            except Exception as err:  # (an agent's bug must not leave the game half-answered)
                problem = f"failed ({type(err).__name__}: {err})"[:200]
            if problem is not None:
                # the game cannot go on: say so rather than step an illegal action
                self.stopped = True
                frames.append(self.frame(caption={"team": team, "action": None, "name": "agent error",
                                                  "banners": [{"kind": "final", "team": None, "text":
                                                               f"{self.labels[team]} {problem}: the game is "
                                                               "stopped"}]}))
                break
            frames.append(self.frame(caption=self._step(action), options=False))
        return frames

    def advance(self, steps: int) -> list[dict]:
        """Agents play up to ``steps`` actions (watch games, or an agent's long turn)."""
        if self.over:
            raise GameError(f"game {self.id} is over" + (" (stopped)" if self.stopped else ""))
        if self.person_to_act():
            raise GameError(f"game {self.id} waits for a person's action, not for the agents")
        frames = self.run_agents(steps)
        if frames:
            frames[-1] = self.frame(caption=frames[-1]["caption"])
        self.save()
        return frames

    def stop(self) -> dict:
        if not self.over:
            self.stopped = True
        self.save()
        return self.frame()

    # --- the record --------------------------------------------------------------------------------------

    def record(self) -> dict:
        return R.make_record(self.config, self.seed, self.actions, seats=self.labels, mode=self.mode,
                             state=self.state)

    def public_record(self) -> dict:
        """The record for the page: only once the game is over or stopped (the seed predicts the dice
        and the actions name a secret special pick)."""
        if not self.over:
            raise GameError(f"game {self.id} is still being played: its record (with the seed that decides "
                            "the dice) is given once it is over or stopped")
        return self.record()

    def save(self) -> None:
        """Write the record (a disk that refuses it costs the record, never the game: said once)."""
        if self.record_path is None:
            return
        try:
            R.save_record(self.record(), self.record_path)
        except OSError as err:
            if self.record_error is None:
                print(f"gridiron-serve: cannot save the record of game {self.id} to {self.record_path}: "
                      f"{err.strerror or err}", file=sys.stderr)
            self.record_error = str(err.strerror or err)


class ReplaySession:
    """A loaded record stepped through forwards and backwards, shown as a spectator sees it."""

    def __init__(self, game_id: str, record: dict):
        self.id = game_id
        self.replay = R.Replay(record)
        self.record = self.replay.record
        self.config = self.replay.config
        self.index = 0
        self.lock = threading.Lock()

    def summary(self) -> dict:
        return {"game": self.id, "mode": "replay", "length": self.replay.length,
                "seats": self.record.get("seats", ["team one", "team two"]),
                "config": {"target_score": self.config.target_score, "specials": self.config.specials,
                           "kick_mode": self.config.kick_mode, "longest_punt": self.config.longest_punt}}

    def seek(self, index: int) -> dict:
        state = self.replay.state_at(index)
        self.index = index
        caption = None
        if index >= 1:
            before = self.replay.state_at(index - 1)
            action = self.replay.action_at(index)
            caption = describe_step(team_view(before, None, -1), team_view(state, None, -1), action,
                                    int(before.to_act[0]), SPECTATOR)
        view = view_of(state, SPECTATOR, self.config, with_options=False)
        view["stopped"] = False
        return {"view": view, "caption": caption, "index": index, "length": self.replay.length}
