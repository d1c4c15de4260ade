"""Touchdown's :class:`~gridiron_env.protocol.GameSpec`\\ s: the engine as the generic env layer serves it.

- ``GAME`` (``"touchdown"``): the whole game, behind ``gridiron_env/Touchdown-v0``. Teams are the engine's
  (0 team one, 1 team two). Illegal actions are recorded by the adapters (``forfeit=None``).
- ``DRIVE`` (``"touchdown_drive"``): one drive, behind ``gridiron_env/TouchdownOffence-v0`` (the learner is
  "team one" of this spec, the drive's offence) and ``gridiron_env/TouchdownDefence-v0`` ("team two", the
  defence). Its teams are **roles**: 0 the team with the drive (the receiver of the opening kick-off, from
  the kick choice on), 1 the other. A drive starts as a new game does (toss and opening kick-off) and ends
  when the drive's team scores (its winner: role 0), when the other team scores (a safety, a return or
  interception touchdown: role 1), when the series passes to the other team (a punt to it, a missed field
  goal, a turnover on downs or in play, the quarter's kick-off: role 1), or when the game ends (role 1
  unless the drive's team scored). A field goal counts as a score. Nothing of Touchdown or the other games
  changes: the drive is a wrapper state (:class:`DriveState`) over the engine's, stepped by the engine.
"""

from __future__ import annotations

import numpy as np

from ..protocol import GameSpec
from ..small_games.diagram import TEAM_NAMES
from ..small_games.game import small_game_spec
from . import actions as A
from . import diagram, engine, invariants
from .observe import OBS_HIGH, OBS_LAYOUT, OBS_LOW, OBS_SIZE, observe as _observe
from .render import render_ansi as _render_ansi, render_rgb as _render_rgb
from .config import TouchdownConfig
from .state import DEFENCE_CALL, DRAW, KICK_CHOICE, OFFENCE_CALL, State

__all__ = ["GAME", "DRIVE", "DriveState", "drive_from_game"]

GAME = small_game_spec(
    "touchdown", "gridiron_env.touchdown", config_class=TouchdownConfig, state_class=State,
    ignored_action=A.IGNORED_ACTION, draw_value=DRAW,
)


class DriveState:
    """A batch of drives: ``game`` (the engine's :class:`State`), ``team`` int8 [B] (the team with the
    drive, engine numbering) and ``start_score`` int16 [B, 2] (the engine's score when the drive began).
    Whether a drive is over and who won it are read from these (``drive_status``)."""

    __slots__ = ("game", "team", "start_score")

    def __init__(self, game: State, team, start_score):
        self.game = game
        self.team = np.asarray(team, dtype=np.int8).copy()
        self.start_score = np.asarray(start_score, dtype=np.int16).copy()

    @property
    def batch_size(self) -> int:
        return self.game.batch_size

    def copy(self) -> "DriveState":
        return DriveState(self.game.copy(), self.team, self.start_score)

    def take(self, games) -> "DriveState":
        games = np.atleast_1d(np.asarray(games))
        return DriveState(self.game.take(games), self.team[games], self.start_score[games])

    def put(self, games, other: "DriveState") -> None:
        self.game.put(games, other.game)
        self.team[games] = other.team
        self.start_score[games] = other.start_score


def drive_from_game(state: State) -> DriveState:
    """Drives starting now in each game of ``state``: the drive's team is the receiver at a kick choice,
    else the team with the series."""
    team = np.where(state.phase == KICK_CHOICE, state.to_act, state.offence)
    return DriveState(state.copy(), team, state.score)


def drive_status(d: DriveState):
    """(over, winner_role, truncated) of every drive: bool [B], int [B] (0/1, -1 none), bool [B]."""
    s = d.game
    rows = np.arange(s.batch_size)
    t = d.team.astype(np.int64)
    gained = s.score.astype(np.int64) - d.start_score.astype(np.int64)
    mine, theirs = gained[rows, t], gained[rows, 1 - t]
    between = (s.phase == OFFENCE_CALL) | (s.phase == DEFENCE_CALL)
    lost_series = (between & (s.offence != t)) | ((s.phase == KICK_CHOICE) & (s.to_act != t))
    scored = (mine > 0) | (theirs > 0)
    cut = s.truncated & ~scored & ~lost_series
    over = scored | lost_series | s.terminated | s.truncated
    winner = np.where(over & ~cut, np.where(mine > theirs, 0, 1), -1)
    return over, winner.astype(np.int64), cut


def _drive_init(batch_size, seed=0, config=None, seeds=None):
    return drive_from_game(engine.init(batch_size, seed=seed, config=config, seeds=seeds))


def _drive_step(d: DriveState, actions, config=None):
    over = drive_status(d)[0]
    new = d.copy()
    live = np.flatnonzero(~over)
    if live.size == 0:
        return new
    a = np.asarray(actions, dtype=np.int64).reshape(-1)
    if a.shape != (d.batch_size,):
        raise ValueError(f"actions must be one per game ({d.batch_size}), got shape {np.shape(actions)}")
    try:
        stepped = engine.step(d.game.take(live), a[live], config)
    except engine.IllegalActionError as err:  # the sub-batch's index -> the drive batch's
        g = None if err.game is None else int(live[int(err.game)])
        raise engine.IllegalActionError(f"touchdown drive game {g}: {err}", game=g, action=err.action,
                                        legal_actions=err.legal_actions) from None
    new.game.put(live, stepped)
    return new


def _drive_mask(d: DriveState) -> np.ndarray:
    return engine.legal_action_mask(d.game) & ~drive_status(d)[0][:, None]


def _drive_to_act(d: DriveState) -> np.ndarray:
    over = drive_status(d)[0]
    role = np.where(d.game.to_act == d.team, 0, 1)
    return np.where(over | (d.game.to_act < 0), -1, role).astype(np.int64)


def _engine_team(d: DriveState, role) -> np.ndarray:
    role = np.broadcast_to(np.asarray(role, dtype=np.int64), (d.batch_size,))
    if ((role < -1) | (role > 1)).any():
        raise ValueError(f"team must be 0 or 1, got {role!r}")
    role = np.where(role < 0, 0, role)
    return np.where(role == 0, d.team, 1 - d.team).astype(np.int64)


def _drive_observe(d: DriveState, team, config=None) -> np.ndarray:
    return _observe(d.game, _engine_team(d, team), config)


def _drive_score(d: DriveState) -> np.ndarray:
    rows = np.arange(d.batch_size)
    t = d.team.astype(np.int64)
    gained = d.game.score.astype(np.int64) - d.start_score.astype(np.int64)
    return np.stack([gained[rows, t], gained[rows, 1 - t]], axis=1)


_DRIVE_TITLE = "touchdown drive v1"


def _drive_to_diagram(d: DriveState, game: int = 0) -> str:
    g = int(game)
    if not (0 <= g < d.batch_size):
        raise ValueError(f"game {game!r} is outside 0..{d.batch_size - 1}")
    return (f"{_DRIVE_TITLE}\ndrive team: {TEAM_NAMES[int(d.team[g])]}\n"
            f"start score: {int(d.start_score[g, 0])}-{int(d.start_score[g, 1])}\n"
            + diagram.to_diagram(d.game, g))


def _drive_from_diagram(text: str, config=None) -> DriveState:
    if not isinstance(text, str):
        raise ValueError(f"a drive diagram must be a str, got {type(text).__name__}")
    lines = text.split("\n")
    if len(lines) < 4 or lines[0].strip() != _DRIVE_TITLE:
        raise ValueError(f"line 1: a drive diagram starts with {_DRIVE_TITLE!r}")
    key, _, value = lines[1].partition(":")
    if key.strip() != "drive team" or value.strip() not in ("one", "two"):
        raise ValueError(f"line 2: expected 'drive team: one|two', got {lines[1]!r}")
    team = 0 if value.strip() == "one" else 1
    key, _, value = lines[2].partition(":")
    parts = value.strip().split("-")
    if key.strip() != "start score" or len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"line 3: expected 'start score: N-N', got {lines[2]!r}")
    start = [int(p) for p in parts]
    state = diagram.from_diagram("\n".join(lines[3:]), config)
    if (np.asarray(start) > state.score[0]).any():
        raise ValueError(f"line 3: the start score {start} exceeds the game's score {state.score[0].tolist()}")
    return DriveState(state, [team], [start])


def _drive_check(d: DriveState, config=None) -> None:
    if not isinstance(d, DriveState):
        raise ValueError(f"expected a DriveState, got {type(d).__name__}")
    invariants.check_invariants(d.game, config)
    if not np.isin(d.team, (0, 1)).all():
        raise invariants.InvariantError("drive team must be 0 or 1")
    if (d.start_score > d.game.score).any() or (d.start_score < 0).any():
        raise invariants.InvariantError("a drive's start score must be between 0 and the game's score")


def _drive_terminated(d):
    over, _, cut = drive_status(d)
    return over & ~cut


DRIVE = GameSpec(
    name="touchdown_drive",
    config_class=TouchdownConfig,
    init=_drive_init,
    step=_drive_step,
    illegal_error=engine.IllegalActionError,
    num_actions=A.NUM_ACTIONS,
    action_names=A.ACTION_NAMES,
    action_id=A.action_id,
    ignored_action=A.IGNORED_ACTION,
    legal_mask=_drive_mask,
    observe=_drive_observe,
    observation_size=OBS_SIZE,
    observation_layout=OBS_LAYOUT,
    observation_bounds=(OBS_LOW, OBS_HIGH),
    to_act=_drive_to_act,
    terminated=_drive_terminated,
    truncated=lambda d: drive_status(d)[2],
    winner=lambda d: drive_status(d)[1],
    draw_value=DRAW,
    score=_drive_score,
    batch_size=lambda d: d.batch_size,
    take=lambda d, games: d.take(games),
    put=lambda d, games, other: d.put(games, other),
    copy=lambda d: d.copy(),
    state_class=DriveState,
    render_ansi=lambda d, game=0: _render_ansi(d.game, game),
    render_rgb=lambda d, game=0: _render_rgb(d.game, game),
    to_diagram=_drive_to_diagram,
    from_diagram=_drive_from_diagram,
    check_invariants=_drive_check,
    forfeit=None,
)
