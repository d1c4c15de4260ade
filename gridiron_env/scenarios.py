"""Named starting positions of Gridiron (like Google Research Football's academy): ``SCENARIOS``.

Each :class:`Scenario` is a documented diagram (``Scenario.diagram``: a partial diagram, RULES.md
"Diagrams", drawn with team one on offence attacking up the page) with ``{placeholders}`` for what the
scenario leaves open. For every game the open parts are drawn from the game's seed, each uniformly and
independently (``Scenario.draws`` says which and how many values each takes), and so are two parts every
scenario leaves open: which team is on offence (team two gets the half turn of the position with the
teams swapped, ``core.state.mirror_state``) and, with ``GameConfig(specials=True)``, each team's special.
The config decides the rest (the last drive uses its ``target_score``). The game's dice stream is keyed
on the seed as ``init`` keys it (``rng: splitmix64(seed) 0``), so the same seed gives the same game.

After the position the game plays on by the normal rules. Every state passes the invariant checker; the
blind scramble's ball is hidden (``ball_hidden``), so no observation shows its square.

Use: ``SCENARIOS[name].build(seeds, config)`` (a State, one game per seed), ``reset(options={"scenario":
name})`` on every Gridiron env, ``scenario=name`` when making one, or a family's Gymnasium id
(``FAMILY_IDS``: a drive from the family's first scenario, the learner on the family's side).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Callable

import numpy as np

from .adapters.common import draw_int
from .config import GameConfig
from .core.actions import SPECIALS
from .core.chance import seed_keys, splitmix64
from .core.diagram import from_diagram, to_diagram
from .core.engine import recompute_legal
from .core.geometry import HASH_BAND
from .core.state import State, mirror_state

__all__ = ["Draw", "Scenario", "SCENARIOS", "FAMILIES", "FAMILY_IDS", "get_scenario", "scenario_names"]

_LANES = tuple(str(lane + 1) for lane in HASH_BAND)  # the hash band's rulebook lanes, 8-11
_OFFENCE_DRAW = "offence"
_SPECIAL_DRAWS = ("special one", "special two")


@dataclass(frozen=True)
class Draw:
    """One open part of a scenario: ``name`` (its placeholder in the diagram), the ``values`` it takes
    (each equally likely, drawn from the game's seed) and what it means."""

    name: str
    values: tuple
    meaning: str


def _salt(scenario: str, draw: str) -> np.uint64:
    """A fixed salt per (scenario, draw): the draws of one seed are independent of each other."""
    return splitmix64(np.array([zlib.crc32(f"gridiron scenario/{scenario}/{draw}".encode())], np.uint64))[0]


@dataclass(frozen=True)
class Scenario:
    """A named starting position (see the module doc).

    ``name``: the key in :data:`SCENARIOS`; ``title``; ``family`` (scenarios of one family share a
    Gymnasium id, :data:`FAMILY_IDS`); ``side``: the side whose problem it is ("offence" or "defence"),
    the learner's side in the family id; ``description``; ``diagram``: the partial diagram with team one on
    offence and a ``{placeholder}`` for each open part; ``draws``: the scenario's own open parts.
    ``{specials}`` is the two teams' specials ("- -" with ``specials=False``); ``values(config)`` gives the
    placeholders that follow from the config (and from other draws), such as the score.
    """

    name: str
    title: str
    family: str
    side: str
    description: str
    diagram: str
    draws: tuple = ()
    values: Callable[[GameConfig, dict], dict] = field(default=lambda config, picks: {}, repr=False)

    # --- the open parts of a batch

    def picks(self, seeds, config: GameConfig | None = None) -> dict[str, np.ndarray]:
        """Every open part of the games seeded ``seeds``: {draw name: int64 [k] index into its values},
        plus ``"offence"`` (0 team one, 1 team two) and, with specials, ``"special one"`` / ``"special
        two"`` (indices into ``core.actions.SPECIALS``)."""
        config = _config(config)
        seeds = _seeds(seeds)
        out = {d.name: draw_int(seeds, _salt(self.name, d.name), len(d.values)) for d in self.draws}
        out[_OFFENCE_DRAW] = draw_int(seeds, _salt(self.name, _OFFENCE_DRAW), 2)
        if config.specials:
            for name in _SPECIAL_DRAWS:
                out[name] = draw_int(seeds, _salt(self.name, name), len(SPECIALS))
        return out

    def text(self, choice: dict, config: GameConfig | None = None, specials=None) -> str:
        """The scenario's diagram with its placeholders filled: ``choice`` {draw name: index} for the
        scenario's own draws; ``specials`` (team one's, team two's index into SPECIALS) or None for "- -".
        Team one is on offence (the half turn gives team two's)."""
        config = _config(config)
        picks = {d.name: d.values[int(choice[d.name])] for d in self.draws}
        shown = "- -" if specials is None else " ".join(SPECIALS[int(v)] for v in specials)
        return self.diagram.format(**picks, **self.values(config, picks), specials=shown)

    def seed_text(self, seed: int, config: GameConfig | None = None) -> tuple[str, int]:
        """(the filled diagram of the game seeded ``seed``, its offence team): the state of that game is
        ``from_diagram(text)`` for offence 0, its ``mirror_state`` for 1, with the seed's dice stream."""
        config = _config(config)
        p = {k: int(v[0]) for k, v in self.picks([seed], config).items()}
        specials = (p[_SPECIAL_DRAWS[0]], p[_SPECIAL_DRAWS[1]]) if config.specials else None
        return self.text(p, config, specials), p[_OFFENCE_DRAW]

    # --- states

    def build(self, seeds, config: GameConfig | None = None, offence=None) -> State:
        """A State with one game per seed (uint64-compatible ints 0..2**64-1), each at this scenario's
        position with its open parts drawn from its seed. ``offence`` (0/1, one or one per game; None:
        drawn from the seed) fixes the team on offence (a drive env gives the learner's side)."""
        config = _config(config)
        seeds = _seeds(seeds)
        k = seeds.size
        picks = self.picks(seeds, config)
        if offence is not None:
            offence = np.broadcast_to(np.asarray(offence), (k,))
            if offence.dtype.kind not in "iu" or not np.isin(offence, (0, 1)).all():
                raise ValueError(f"offence must be 0 or 1 (one or one per game), got {offence!r}")
            picks[_OFFENCE_DRAW] = offence.astype(np.int64)
        # One diagram per distinct choice of the scenario's own draws (a handful), then a gather: no loop
        # over games. The team and the specials are set on the arrays (recompute_legal reads them).
        names = [d.name for d in self.draws]
        combos = np.stack([picks[n] for n in names], axis=1) if names else np.zeros((k, 0), np.int64)
        unique, which = np.unique(combos, axis=0, return_inverse=True)
        protos = [_prototype(self, tuple(int(v) for v in row), config) for row in unique]
        s = protos[0].take(np.zeros(k, dtype=np.int64)) if len(protos) == 1 else \
            State.concatenate(protos).take(np.asarray(which).reshape(-1))
        if config.specials:
            s.special[:, 0] = picks[_SPECIAL_DRAWS[0]]
            s.special[:, 1] = picks[_SPECIAL_DRAWS[1]]
        two = np.flatnonzero(picks[_OFFENCE_DRAW] == 1)
        if two.size:
            s.put(two, mirror_state(s.take(two)))
        s.rng_key[:] = seed_keys(seeds)
        s.rng_counter[:] = 0
        recompute_legal(s, config)
        return s

    def state(self, seed: int = 0, config: GameConfig | None = None) -> State:
        """The game seeded ``seed`` (a State of one game)."""
        return self.build([seed], config)

    def show(self, seed: int = 0, config: GameConfig | None = None, team: int | None = -1) -> str:
        """The full diagram of the game seeded ``seed`` as ``team`` sees it (-1 a spectator, the default:
        the hidden ball's square is written ``hidden``; None: everything, which reads back)."""
        return to_diagram(self.state(seed, config), 0, team=team)


def _config(config) -> GameConfig:
    if config is None:
        return GameConfig()
    if not isinstance(config, GameConfig):
        raise ValueError(f"config must be None or a GameConfig, got {type(config).__name__}")
    return config


def _seeds(seeds) -> np.ndarray:
    """uint64 [k] from ints 0..2**64-1 (one int: a batch of one); ValueError naming ``seeds`` otherwise
    (bools, floats, negatives, too-large ints, as ``core.chance.seed_keys`` refuses them)."""
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64 and seeds.size:  # the envs' episode seeds
        return seeds.reshape(-1)
    seed_keys(seeds)
    if isinstance(seeds, (int, np.integer)):
        return np.array([int(seeds)], dtype=np.uint64)
    if isinstance(seeds, np.ndarray):  # an int array seed_keys accepted: every value is 0..2**64-1
        return seeds.reshape(-1).astype(np.uint64)
    return np.array([int(x) for x in seeds], dtype=np.uint64)


@lru_cache(maxsize=512)
def _prototype(scenario: Scenario, choice: tuple, config: GameConfig) -> State:
    """Team one's position for one choice of the scenario's own draws (no specials, rng 0 0)."""
    picks = dict(zip((d.name for d in scenario.draws), choice))
    return from_diagram(scenario.text(picks, config), config)


# ------------------------------------------------------------------------------------------- the scenarios

_HEAD = """\
gridiron diagram v1
phase: offence_formation
offence: one
opener: {opener}
score: {score}
drives: {drives}
down: {down}
line of scrimmage: row {row} lane {lane}
line to gain: row {gain}
specials: {{specials}}
ball: loose {row},{lane}
board:
"""


def _snap(down, row, gain, lane="{lane}", score="0-0", drives="1-0", opener="one") -> str:
    """The diagram of a down about to start (offence_formation: the offence picks its formation next),
    the ball on the line of scrimmage; ``row``/``gain``/``lane`` may be placeholders of draws."""
    return _HEAD.format(opener=opener, score=score, drives=drives, down=down, row=row, lane=lane, gain=gain)


def _rows(low: int, high: int) -> tuple:
    return tuple(str(r) for r in range(low, high + 1))


def _drawn_snap(down: int, low: int, high: int, rows_ahead: int) -> dict:
    """The diagram, draws and values of a down about to start on a row drawn from ``low``..``high`` (team
    one's rulebook rows), the line to gain ``rows_ahead`` rows up the page from it, the lane drawn too."""
    return dict(diagram=_snap(down, "{row}", "{gain}"),
                draws=(Draw("row", _rows(low, high), "the line of scrimmage's row (team one's frame)"), _LANE_DRAW),
                values=lambda config, picks: {"gain": str(int(picks["row"]) - rows_ahead)})


_LANE_DRAW = Draw("lane", _LANES, "the ball's lane at the snap, in the hash band (lanes 8-11)")

# The fumble of the blind scramble: H, tackled at 13,10 by MLB from beside (13,9), loses the ball to one of
# his free neighbours, in the engine's order (N, NE, E, SE, S, SW, W, NW: S and W are taken).
_SCRAMBLE_SQUARES = ("12,10", "12,11", "13,11", "14,11", "14,9", "12,9")

_SCRAMBLE = """\
gridiron diagram v1
phase: scramble
to act: two
offence: one
opener: one
score: 0-0
drives: 1-0
down: 1
line of scrimmage: row 15 lane 9
line to gain: row 12
rolls: 1
points: 1-0
dice: 6,3-4,1
formations: singleback four_three
strong: C RG
specials: {specials}
scramble: step 0 resume two
ball: loose {ball} hidden
last holder: one
board:
 11 | .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .
 12 | .   .   .   .   .   .   .   .   .   .   .   .   SS  .   .   .   .   .
 13 | .   .   LCB .   .   WLB .   .   MLB H   .   SLB .   .   RCB .   .   .
 14 | .   .   .   .   .   LDE .   LDT .   RDT .   RDE .   .   .   .   .   .
 15 | .   X   .   .   .   .   LT  LG  C   RG  RT  Y   .   .   .   .   .   .
 16 | .   .   .   .   F   .   .   .   QB  .   .   .   .   .   .   Z   .   .
"""


def _last_drive_score(config: GameConfig, picks: dict) -> dict:
    target = config.target_score
    return {"score": f"{max(target - 3, 0)}-{target}"}


_LIST = (
    Scenario(
        name="goal_line_stand", title="Goal-line stand", family="goal_line_stand", side="defence",
        description="First and goal on the row next to the end zone (the 4-yard line): the offence has four "
                    "downs to gain one row, the defence must hold. The opening drive of a 0-0 game.",
        diagram=_snap(1, 4, 1), draws=(_LANE_DRAW,)),
    Scenario(
        name="fourth_and_goal", title="Fourth and goal", family="goal_line_stand", side="defence",
        description="Fourth and goal on the row next to the end zone: one play to score the touchdown, or "
                    "the near-certain field goal (95%) instead. The opening drive of a 0-0 game.",
        diagram=_snap(4, 4, 1), draws=(_LANE_DRAW,)),
    Scenario(
        name="fourth_and_short", title="Fourth and short", family="short_yardage", side="offence",
        description="Fourth down with one row to go, between the offence's rows 10 and 19 (its field goal "
                    "range ends at row 18): go for it, punt, or try the long field goal.",
        **_drawn_snap(4, 10, 19, 1)),
    Scenario(
        name="third_and_short", title="Third and short", family="short_yardage", side="offence",
        description="Third down with one row to go between rows 10 and 19: a fourth down is still left.",
        **_drawn_snap(3, 10, 19, 1)),
    Scenario(
        name="backed_up", title="Backed up at the own 5", family="backed_up", side="offence",
        description="First and ten on the last row before the offence's own end zone (its own 4-yard line): "
                    "a tackle in the end zone behind is a safety, and a punt from here gives good field "
                    "position away.",
        diagram=_snap(1, 27, 24), draws=(_LANE_DRAW,)),
    Scenario(
        name="last_drive", title="The last drive, down 3", family="last_drive", side="offence",
        description="The opener (the defence here) has reached the target score; the offence trails by 3 "
                    "(by the whole target when it is under 3) and this is its final drive, from its kickoff "
                    "spot: a field goal ties (overtime), a touchdown wins, anything else loses.",
        diagram=_snap(1, 22, 19, lane="9", score="{score}", drives="4-4", opener="two"),
        values=_last_drive_score),
    Scenario(
        name="red_zone", title="Red zone", family="red_zone", side="offence",
        description="First and ten inside the defence's 20 (rows 5-8: 5 to 20 yards out; from rows 5 and 6 "
                    "the line to gain is in the end zone).",
        **_drawn_snap(1, 5, 8, 3)),
    Scenario(
        name="blind_scramble", title="Blind scramble", family="blind_scramble", side="defence",
        description="H broke through the line and was tackled from beside by MLB; the ball squirted out to a "
                    "free square next to him, hidden from both teams. The tackling side (the defence) takes "
                    "the first blind step, then the offence; whoever steps onto the ball recovers it.",
        diagram=_SCRAMBLE,
        draws=(Draw("ball", _SCRAMBLE_SQUARES, "the hidden ball's square: one of H's six free neighbours "
                                               "(as the engine's fumble picks it); hidden from both teams"),)),
)

SCENARIOS = MappingProxyType({s.name: s for s in _LIST})
"""name -> :class:`Scenario`, in documentation order (read-only)."""

FAMILIES = MappingProxyType({f: tuple(s.name for s in _LIST if s.family == f)
                             for f in dict.fromkeys(s.family for s in _LIST)})
"""family -> its scenarios' names (the first is the family id's default)."""

FAMILY_IDS = MappingProxyType({
    f"gridiron_env/Gridiron{''.join(w.capitalize() for w in family.split('_'))}-v0": family
    for family in FAMILIES})
"""Gymnasium id -> family: ``gymnasium.make(id)`` plays one drive from the family's first scenario (or
``scenario=`` another of the family) with the learner on its side (``side=`` the other)."""


def scenario_names() -> tuple:
    return tuple(SCENARIOS)


def get_scenario(name) -> Scenario:
    """The scenario called ``name`` (a Scenario passes through); ValueError naming it and the allowed."""
    if isinstance(name, Scenario):
        return name
    if isinstance(name, str) and name in SCENARIOS:
        return SCENARIOS[name]
    raise ValueError(f"unknown scenario {name!r}; allowed: {', '.join(SCENARIOS)}")
