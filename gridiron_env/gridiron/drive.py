"""Gridiron's drive :class:`~gridiron_env.protocol.GameSpec` (``DRIVE``, registered as ``"gridiron_drive"``):
one drive of the engine (``gridiron_env.core``) as the generic env layer (``gridiron_env.adapters``) serves
it, playing the episodes of Gridiron's own drive envs (``GridironOffenceEnv``, ``GridironDefenceEnv``,
``GridironScenarioEnv`` and their vector envs) seed for seed.

Teams are the engine's (0 team one, 1 team two), so the learner's agent name is its engine team's. The
drive's settings are config fields (:class:`DriveConfig`, a :class:`~gridiron_env.config.GameConfig` with
``specials`` off by default): ``side`` (the learner's side, "offence" or "defence"), ``start`` and
``field_position_weight`` w. Variants ``"offence"`` and ``"defence"`` fix ``side``.

- A drive starts (:func:`new_drives`) as the drive envs start one: the learner's team (drawn from the
  episode seed with Gridiron's learner salt when the env's ``learner_team`` is "random") takes ``side``;
  the offence has first-and-ten at the ``start`` spot ("kickoff": the 6th row out from its own goal line;
  "random": LOS row uniform over the field of play, lane over the hash band, from the seed; an int k in
  4..27: rulebook row k from the goal line it attacks); with specials on each team gets a random special.
  A scenario (``scenarios``: Gridiron's :data:`~gridiron_env.scenarios.SCENARIOS`) starts it from that
  position instead, the learner's team on ``side``. A given position seats the learner by its side
  (``learner_seat``: the offence at the snap, or the other team).
- The drive is over (``to_act`` -1, ``terminated``) once either team's drive count moves (a touchdown, a
  field goal attempt, a punt, a turnover, a safety, a turnover on downs) or the game ends; ``truncated``
  is the game's step cap with the drive still on. ``winner``: the game's winner if the game ended, else
  the team that gained more points in the drive, else (none scored) the team with the ball next.
- Reward (``learner_reward``): the points the learner's team scored in the step minus the other team's,
  plus w times the value of the position the drive leaves, v = (rows the next offence must go to score,
  1..24) / 24: +w*v for the team that did not get the ball next, -w*v for the one that did (0 if the game
  ended or the episode was cut). An illegal action costs -(7 + w), the worst a drive can give. Rewards
  are float32 values (as the drive envs give them).
- Agents (``agent_view``) are given the engine's State and GameConfig of the games they act in, as the
  drive envs give them; observations, the ``"planes"`` kind, the pictures (``offence_up``) and the
  illegal-action infos are the whole game's (``gridiron_env.gridiron.game.GAME``) over the engine state.

The state is a :class:`DriveState`: the engine's State and each team's drive count and score when the
drive began.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..adapters.common import draw_int
from ..config import GameConfig
from ..core import engine
from ..core.diagram import from_diagram, to_diagram
from ..core.geometry import FIRST_FIELD_ROW, FRAME_ROW, HASH_BAND, KICKOFF_SQUARE, N_LANES, N_ROWS
from ..core.invariants import InvariantError, check_invariants
from ..core.observe import observe
from ..core.rules import IllegalActionError
from ..core.state import FIELDS as STATE_FIELDS
from ..core.state import State
from ..core.visibility import team_view
from ..protocol import GameSpec, ObservationKind
from ..scenarios import SCENARIOS, get_scenario
from .game import GAME, SALTS

__all__ = ["DRIVE", "DriveConfig", "DriveState", "new_drives", "field_position", "drive_over",
           "DRIVE_SIDES", "DRIVE_STARTS", "MAX_DRIVE_POINTS", "FIELD_ROWS"]

DRIVE_SIDES = ("offence", "defence")
DRIVE_STARTS = ("kickoff", "random")  # or an int LOS row 4..27
# The most a drive can swing: a touchdown and its PAT. An illegal action costs this plus the field-position
# weight (the worst outcome a drive can have), so that giving up by breaking a rule never pays better.
MAX_DRIVE_POINTS = 7
FIELD_ROWS = 24  # rows of the field of play: the most rows an offence can have to go to score

# Salts of the start draws (the drive envs' own: the same seed gives the same drive there and here)
ROW_SALT = np.uint64(0x5747_2700_0000_0002)
LANE_SALT = np.uint64(0x1A4E_0000_0000_0003)
SPECIAL_SALTS = (np.uint64(0x5BEC_1A10_0000_0004), np.uint64(0x5BEC_1A20_0000_0005))
_KICKOFF_FRAME_ROW = int(FRAME_ROW[0, KICKOFF_SQUARE[0]])  # 21: the 6th row out from the own goal line
_KICKOFF_FRAME_LANE = KICKOFF_SQUARE[0] % N_LANES  # 8 in the offence's frame (team two's 9 seen from it)


# ------------------------------------------------------------------------------------------------- config

_GAME_FIELDS = tuple(f.name for f in dataclasses.fields(GameConfig))


@dataclass(frozen=True)
class DriveConfig(GameConfig):
    """A :class:`GameConfig` (``specials`` off by default) with the drive's settings; every field validated
    (ValueError naming it). ``side``: the learner's side, "offence" or "defence". ``start``: "kickoff",
    "random" or an int LOS row 4..27 (rulebook rows from the goal line the offence attacks); a scenario
    start replaces it. ``field_position_weight``: w >= 0, the weight of the position a drive leaves.
    ``engine``: the plain GameConfig of the game fields, which the engine is given."""

    specials: bool = False
    side: str = "offence"
    start: object = "kickoff"
    field_position_weight: float = 0.0

    def __post_init__(self):
        super().__post_init__()
        if not (isinstance(self.side, str) and self.side in DRIVE_SIDES):
            raise ValueError(f"DriveConfig.side must be one of {DRIVE_SIDES}, got {self.side!r}")
        start = self.start
        named = isinstance(start, str) and start in DRIVE_STARTS
        row = isinstance(start, numbers.Integral) and not isinstance(start, (bool, np.bool_)) and 4 <= start <= 27
        if not (named or row):
            raise ValueError(f"DriveConfig.start must be 'kickoff', 'random' or an int LOS row 4..27 (rulebook "
                             f"rows from the goal line the offence attacks), got {start!r}")
        object.__setattr__(self, "start", str(start) if named else int(start))
        w = self.field_position_weight
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real) or not math.isfinite(w) or w < 0:
            raise ValueError(f"DriveConfig.field_position_weight must be a finite number >= 0, got {w!r}")
        object.__setattr__(self, "field_position_weight", float(w))
        # not a field: the engine's own config, built once (the engine steps fastest on a plain GameConfig)
        object.__setattr__(self, "engine", GameConfig(**{name: getattr(self, name) for name in _GAME_FIELDS}))

    def replace(self, **changes) -> "DriveConfig":
        """A copy with some fields changed; an unknown name raises ValueError."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, values: Mapping) -> "DriveConfig":
        """A config from a mapping of field names to values (missing fields keep their defaults)."""
        if not isinstance(values, Mapping):
            raise ValueError(f"DriveConfig.from_dict takes a dict of field values, got {type(values).__name__}")
        _check_names(values)
        return cls(**values)

    @classmethod
    def of(cls, config: GameConfig, **drive) -> "DriveConfig":
        """The drive config of a GameConfig's game fields and the drive settings ``drive``."""
        return cls(**{name: getattr(config, name) for name in _GAME_FIELDS}, **drive)


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(DriveConfig))


def _check_names(values) -> None:
    unknown = sorted((k for k in values if k not in _FIELD_NAMES), key=repr)
    if unknown:
        raise ValueError(f"unknown DriveConfig field(s) {unknown}; allowed: {sorted(_FIELD_NAMES)}")


def _engine_config(config) -> GameConfig:
    if config is None:
        return _DEFAULT.engine
    if isinstance(config, DriveConfig):
        return config.engine
    if isinstance(config, GameConfig):
        return config
    raise ValueError(f"config must be None or a DriveConfig, got {type(config).__name__}")


def _drive_config(config) -> DriveConfig:
    if config is None:
        return _DEFAULT
    if not isinstance(config, DriveConfig):
        raise ValueError(f"config must be None or a DriveConfig, got {type(config).__name__}")
    return config


_DEFAULT = DriveConfig()


# -------------------------------------------------------------------------------------------------- state

class DriveState:
    """A batch of drives: ``game`` (the engine's :class:`State`), ``drives0`` int16 [B, 2] and ``score0``
    int64 [B, 2] (each team's drive count and points when the drive began; the drive is over once the
    game's ``drives`` differ). None: the game's own now (a drive starting in that position)."""

    __slots__ = ("game", "drives0", "score0")

    def __init__(self, game: State, drives0=None, score0=None):
        self.game = game
        self.drives0 = np.array(game.drives if drives0 is None else drives0, dtype=np.int16)
        self.score0 = np.array(game.score if score0 is None else score0, dtype=np.int64)

    @property
    def batch_size(self) -> int:
        return self.game.batch_size

    def copy(self) -> "DriveState":
        return DriveState(self.game.copy(), self.drives0, self.score0)

    def take(self, games) -> "DriveState":
        games = np.atleast_1d(np.asarray(games))
        if games.dtype == np.bool_:  # a mask (``ndarray.take`` would read it as the ids 0 and 1)
            games = np.flatnonzero(games)
        # ``ndarray.take`` along the batch axis, about twice as fast as fancy indexing over a whole state
        # (the adapters take sub-batches every few opponent rounds); a new State's fields filled as
        # ``State.copy`` fills them
        game = object.__new__(State)
        fields_ = self.game.__dict__
        game.__dict__.update({name: fields_[name].take(games, axis=0) for name in STATE_FIELDS})
        new = object.__new__(DriveState)
        new.game, new.drives0, new.score0 = game, self.drives0.take(games, axis=0), self.score0.take(games, axis=0)
        return new

    def put(self, games, other: "DriveState") -> None:
        self.game.put(games, other.game)
        self.drives0[games] = other.drives0
        self.score0[games] = other.score0


def _moved(d: DriveState) -> np.ndarray:
    """bool [B]: either team's drive count moved since the drive began. Each game's two int16 counts are
    compared as one int32 (one pass, where ``any(axis=1)`` over a width of 2 costs a reduction per call:
    the adapters ask every opponent round)."""
    now, start = d.game.drives, d.drives0
    if now.flags.c_contiguous and start.flags.c_contiguous and now.dtype == start.dtype == np.int16:
        return now.view(np.int32).reshape(-1) != start.view(np.int32).reshape(-1)
    return (now != start).any(axis=1)


def drive_over(d: DriveState) -> np.ndarray:
    """bool [B]: the drive is over (either team's drive count moved) or the game is."""
    s = d.game
    over = _moved(d)
    over |= s.terminated
    over |= s.truncated
    return over


def _handed_over(d: DriveState) -> np.ndarray:
    return _moved(d) & ~d.game.terminated


def new_drives(seeds, config: DriveConfig, learner, scenario=None) -> DriveState:
    """New drives, one per uint64 episode seed, the learner's team ``learner`` (int [k]) on
    ``config.side``: from ``config.start`` or from ``scenario`` (a Gridiron Scenario or a name of
    ``DRIVE.scenarios``), as the module doc says."""
    config = _drive_config(config)
    seeds = np.asarray(seeds, dtype=np.uint64).reshape(-1)
    learner = np.asarray(learner, dtype=np.int64).reshape(-1)
    offence = learner if config.side == "offence" else 1 - learner
    if scenario is not None:  # the scenario's position, not ``start`` (as a drive env's reset option has it)
        sc = get_scenario(getattr(scenario, "scenario", scenario))  # a name: ValueError listing the allowed
        return DriveState(sc.build(seeds, config.engine, offence=offence))
    return DriveState(start_drives(seeds, config.engine, offence, config.start))


def start_drives(seeds, config: GameConfig, offence, start="kickoff") -> State:
    """New engine games set to one drive: ``offence`` (int [k]) has first-and-ten at ``start`` (see
    :class:`DriveConfig`), opened the game and is on its first drive; with specials on each team gets a
    special drawn from the seed (``start_drive`` skips the pick)."""
    new = engine.init(seeds=seeds, config=config)
    k = seeds.size
    if start == "kickoff":
        frame_row = np.full(k, _KICKOFF_FRAME_ROW)
        frame_lane = np.full(k, _KICKOFF_FRAME_LANE)
    elif start == "random":
        frame_row = FIRST_FIELD_ROW + draw_int(seeds, ROW_SALT, FIELD_ROWS)
        frame_lane = HASH_BAND[0] + draw_int(seeds, LANE_SALT, len(HASH_BAND))
    else:
        frame_row = np.full(k, int(start) - 1)  # rulebook row k is 0-based frame row k - 1
        frame_lane = np.full(k, _KICKOFF_FRAME_LANE)
    row = np.where(offence == 0, frame_row, N_ROWS - 1 - frame_row)
    lane = np.where(offence == 0, frame_lane, N_LANES - 1 - frame_lane)
    r = np.arange(k)
    new.opener[:] = offence
    new.drives[:] = 0
    new.drives[r, offence] = 1
    if config.specials:
        for team, salt in enumerate(SPECIAL_SALTS):
            new.special[:, team] = draw_int(seeds, salt, 4)
    engine.start_drive(new, r, offence, row, lane, config)
    return new


def field_position(state: State, games, learner, handed_over) -> np.ndarray:
    """float64 [k]: the value of the position a drive leaves, for the learner's team ``learner`` (int
    [k]): (rows the next offence must go to score, 1..24) / 24, positive when the learner's team did not
    get the ball, negative when it did; 0 where ``handed_over`` (bool [k]) is False."""
    nxt = state.offence[games].astype(np.int64)
    los = FRAME_ROW[nxt, state.los_row[games].astype(np.int64) * N_LANES].astype(np.int64)
    value = (los - (FIRST_FIELD_ROW - 1)) / FIELD_ROWS
    sign = np.where(nxt == learner, -1.0, 1.0)
    return np.where(handed_over, sign * value, 0.0)


# ------------------------------------------------------------------------------------------ spec members

def _init(batch_size, seed=0, config=None, seeds=None):
    # the learner's team as a "random" learner env draws it, so init and the env's first episode agree
    if seeds is None:
        with np.errstate(over="ignore"):
            seeds = np.uint64(int(seed) % (1 << 64)) + np.arange(int(batch_size), dtype=np.uint64)
    seeds = np.asarray(seeds, dtype=np.uint64).reshape(-1)
    return new_drives(seeds, config, draw_int(seeds, SALTS.learner, 2))


def _step(d: DriveState, actions, config=None):
    if type(d) is not DriveState:
        raise ValueError(f"a gridiron drive step needs a DriveState, got {type(d).__name__}")
    # a drive that is over ignores its action, as a finished game does (the engine skips an ended game's)
    live = ~_moved(d)
    try:
        new = engine.step(d.game, actions, _engine_config(config), active=live)
    except IllegalActionError as err:
        raise IllegalActionError(f"gridiron drive game {err.game}: {err}", game=err.game, action=err.action,
                                 legal_actions=err.legal_actions) from None
    return DriveState(new, d.drives0, d.score0)


def _step_active(d: DriveState, actions, active, config=None):
    # the adapters' own state, updated in place; a drive that is over ignores its action here too
    try:
        new = engine.step(d.game, actions, _engine_config(config), active=active & ~_moved(d), reuse_input=True)
    except IllegalActionError as err:
        raise IllegalActionError(f"gridiron drive game {err.game}: {err}", game=err.game, action=err.action,
                                 legal_actions=err.legal_actions) from None
    d.game = new
    return d


def _step_reusing(d: DriveState, actions, config=None):
    return _step_active(d, actions, np.ones(d.batch_size, dtype=bool), config)


def _lift_state(given):
    """A position given to a drive env: an engine State starts a drive there (its drive counts and score
    now are the drive's start); a DriveState is taken as it is."""
    return DriveState(given) if isinstance(given, State) else given


def _legal_mask(d: DriveState) -> np.ndarray:
    # a copy and the rows of drives handed over cleared (cheaper than a masked AND of every row); the
    # engine's rows of ended games are clear already
    legal = d.game.legal.copy()
    moved = _moved(d)
    if moved.any():
        legal[moved] = False
    return legal


def _legal_rows(d: DriveState, rows) -> np.ndarray:
    # ``_legal_mask(d)[rows]`` from the rows alone: the fancy index is the copy
    rows = np.asarray(rows, dtype=np.int64)
    legal = d.game.legal[rows]
    moved = (d.game.drives[rows] != d.drives0[rows]).any(axis=1)
    if moved.any():
        legal[moved] = False
    return legal


def _to_act(d: DriveState) -> np.ndarray:
    to_act = d.game.to_act.astype(np.int64)  # the engine's is -1 already once the game is over
    to_act[_moved(d)] = -1
    return to_act


def _terminated(d: DriveState) -> np.ndarray:
    return d.game.terminated | _handed_over(d)


def _truncated(d: DriveState) -> np.ndarray:
    return d.game.truncated & ~_handed_over(d)


def _winner(d: DriveState) -> np.ndarray:
    # the game's winner once it ended; a handed-over drive: the team that gained more points in it, or with
    # none scored (a punt, a turnover, a missed field goal) the team with the ball next, which stopped it
    s = d.game
    rows = np.arange(s.batch_size)
    gained = s.score.astype(np.int64) - d.score0
    scorer = np.where(gained[rows, 0] > gained[rows, 1], 0, 1)
    by_drive = np.where(gained[rows, 0] == gained[rows, 1], s.offence.astype(np.int64), scorer)
    return np.where(s.terminated, s.winner, np.where(_handed_over(d), by_drive, -1)).astype(np.int64)


def _learner_reward(state: DriveState, games, learner, score_before, forfeited, config=None) -> np.ndarray:
    config = _drive_config(config)
    s = state.game
    r = np.arange(games.size)
    other = 1 - learner
    score = s.score[games].astype(np.int64)
    margin = (score[r, learner] - score_before[r, learner]) - (score[r, other] - score_before[r, other])
    handed = _handed_over(state)[games]
    w = config.field_position_weight
    reward = margin + w * field_position(s, games, learner, handed)
    reward[forfeited] = -(MAX_DRIVE_POINTS + w)
    return reward.astype(np.float32).astype(np.float64)  # the drive envs' float32 rewards


def _learner_seat(d: DriveState, config=None) -> np.ndarray:
    offence = d.game.offence.astype(np.int64)
    return offence if _drive_config(config).side == "offence" else 1 - offence


def _forfeit(d: DriveState, games, loser, config=None) -> None:
    engine.forfeit(d.game, games, loser)


# Gridiron's own members over a drive's engine state: the drawings (with their orientation option), the
# extra observation kinds and the illegal-action wording are the whole game's (``game.GAME``)
def _render_ansi(d: DriveState, game=0, **options):
    return GAME.render_ansi(d.game, game, **options)


def _render_rgb(d: DriveState, game=0, **options):
    return GAME.render_rgb(d.game, game, **options)


def _over_engine_state(kind: ObservationKind) -> ObservationKind:
    return ObservationKind(encode=lambda d, team, config=None: kind.encode(d.game, team, _engine_config(config)),
                           space=kind.space)


def _illegal_entry(d: DriveState, game, given, team=None) -> dict:
    return GAME.illegal_entry(d.game, game, given, team)


_TITLE = "gridiron drive v1"


def _to_diagram(d: DriveState, game: int = 0) -> str:
    g = int(game)
    if not (0 <= g < d.batch_size):
        raise ValueError(f"game {game!r} is outside 0..{d.batch_size - 1}")
    return (f"{_TITLE}\ndrives at start: {int(d.drives0[g, 0])}-{int(d.drives0[g, 1])}\n"
            f"score at start: {int(d.score0[g, 0])}-{int(d.score0[g, 1])}\n" + to_diagram(d.game, g))


def _pair_line(lines, index: int, key: str) -> list:
    name, _, value = lines[index].partition(":")
    parts = value.strip().split("-")
    if name.strip() != key or len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"line {index + 1}: expected '{key}: N-N', got {lines[index]!r}")
    return [int(p) for p in parts]


def _from_diagram(text: str, config=None) -> DriveState:
    if not isinstance(text, str):
        raise ValueError(f"a drive diagram must be a str, got {type(text).__name__}")
    lines = text.split("\n")
    if len(lines) < 4 or lines[0].strip() != _TITLE:
        raise ValueError(f"line 1: a drive diagram starts with {_TITLE!r}")
    drives0, score0 = _pair_line(lines, 1, "drives at start"), _pair_line(lines, 2, "score at start")
    state = from_diagram("\n".join(lines[3:]), _engine_config(config))
    if (np.asarray(drives0) > state.drives[0]).any():
        raise ValueError(f"line 2: the drives at start {drives0} exceed the game's {state.drives[0].tolist()}")
    if (np.asarray(score0) > state.score[0]).any():
        raise ValueError(f"line 3: the score at start {score0} exceeds the game's {state.score[0].tolist()}")
    return DriveState(state, [drives0], [score0])


def _check_invariants(d: DriveState, config=None) -> None:
    if not isinstance(d, DriveState):
        raise ValueError(f"expected a DriveState, got {type(d).__name__}")
    check_invariants(d.game, check_mask=True, config=_engine_config(config))
    for name, start, now in (("drive counts", d.drives0, d.game.drives), ("points", d.score0, d.game.score)):
        if start.shape != (d.batch_size, 2) or (start > now).any() or (start < 0).any():
            raise InvariantError(f"a drive's start {name} must be between 0 and the game's")


class _DriveScenario:
    """A Gridiron scenario as the drive spec's: ``build(seeds, config, learner=None)`` gives DriveStates,
    the learner's team (None: drawn from each seed, as ``init`` does) on ``config.side``."""

    __slots__ = ("scenario",)

    def __init__(self, scenario):
        self.scenario = scenario

    def __getattr__(self, name):  # name, title, family, side, description, ...
        if name == "scenario":  # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.scenario, name)

    def build(self, seeds, config=None, learner=None):
        seeds = np.asarray(seeds, dtype=np.uint64).reshape(-1)
        if learner is None:
            learner = draw_int(seeds, SALTS.learner, 2)
        return new_drives(seeds, config, learner, self.scenario)


def _learner_start(seeds, config, learner, scenario=None) -> DriveState:
    return new_drives(seeds, config, learner, scenario)


# the whole game's members that read no state: its actions, observation shape, seeds and drawing options
_SHARED = ("illegal_error", "num_actions", "action_names", "action_id", "ignored_action", "observation_size",
           "observation_layout", "observation_bounds", "draw_value", "salts", "orientation", "draws")

DRIVE = GameSpec(
    name="gridiron_drive",
    config_class=DriveConfig,
    init=_init,
    step=_step,
    legal_mask=_legal_mask,
    legal_rows=_legal_rows,
    observe=lambda d, team, config=None: observe(d.game, team, _engine_config(config)),
    to_act=_to_act,
    terminated=_terminated,
    truncated=_truncated,
    winner=_winner,
    score=lambda d: d.game.score.astype(np.int64),
    batch_size=lambda d: d.batch_size,
    take=lambda d, games: d.take(games),
    put=lambda d, games, other: d.put(games, other),
    copy=lambda d: d.copy(),
    state_class=DriveState,
    render_ansi=_render_ansi,
    render_rgb=_render_rgb,
    to_diagram=_to_diagram,
    from_diagram=_from_diagram,
    check_invariants=_check_invariants,
    forfeit=_forfeit,
    variants={"basic": {}, "offence": {"side": "offence"}, "defence": {"side": "defence"}},
    view=lambda d, team: DriveState(team_view(d.game, team=team), d.drives0, d.score0),
    scenarios=MappingProxyType({name: _DriveScenario(sc) for name, sc in SCENARIOS.items()}),
    observation_kinds={name: _over_engine_state(kind) for name, kind in GAME.observation_kinds.items()},
    illegal_entry=None if GAME.illegal_entry is None else _illegal_entry,
    learner_start=_learner_start,
    learner_seat=_learner_seat,
    learner_reward=_learner_reward,
    agent_view=lambda d, config: (d.game, _engine_config(config)),  # Gridiron's agents read the engine's
    outer_state=lambda d: d.game,  # a drive env's ``state`` is the engine's, as users read it
    lift_state=_lift_state,
    step_reusing=_step_reusing,
    step_active=_step_active,
    **{name: getattr(GAME, name) for name in _SHARED},
)
