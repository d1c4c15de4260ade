"""The game protocol: what a game's engine gives the generic env layer (``gridiron_env.adapters``).

A game is served by one :class:`GameSpec`: a frozen record of its engine's functions and constants. The
adapters (Gymnasium env, natively batched ``VectorEnv``, PettingZoo AEC env, SB3 ``VecEnv``) are written
once against it, so a new game needs a ``GameSpec`` and no env class.

Conventions every member keeps:

- A **state** is the game's own struct of numpy arrays with a leading batch axis ``B`` (one game is a
  batch of one). The adapters never read its fields: only the members below.
- **Teams** are 0 (team one, agent ``"team_one"``) and 1 (team two, ``"team_two"``).
- **Actions** are ints ``0..num_actions-1``; every id has a stable name (``action_names``).
- **Randomness** lives in the state: game i of ``init(B, seed=s)`` plays exactly like ``init(1, seed=s+i)``
  and like ``init(seeds=[s+i])``, whatever else is in the batch, so the same seed and actions give the
  same game at any batch size (the adapters rely on this: they step sub-batches taken with ``take``).
- ``step`` raises ``illegal_error`` (a ValueError subclass with ``game``, ``action`` and
  ``legal_actions`` attributes), changing nothing, if any live game's action is illegal; finished games
  ignore their action.

Register a game with :func:`register_game` (a lazily imported ``"module:attribute"`` path) and look it up
with :func:`get_game`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

__all__ = ["GameSpec", "EnvSalts", "ObservationKind", "array_state_members", "register_game", "get_game", "game_names", "check_game", "TEAMS", "NO_WINNER"]

TEAMS = (0, 1)
NO_WINNER = -1  # ``winner`` of a game that goes on, or was truncated


@dataclass(frozen=True)
class EnvSalts:
    """The salts of the random draws the generic env families make per episode: each a uint64 (an int
    0..2**64-1) that keys one stream of ``splitmix64(seed ^ salt)`` over the episode seeds. The defaults
    are the generic adapters' own; a game that must replay another env's episodes (Gridiron's spec: those
    of ``gridiron_env.envs``) gives that env's salts.

    ``episode``: the learner envs' (``adapters.single`` / ``adapters.vector``) later episodes of a slot,
    episode k >= 1 of base seed b seeded ``splitmix64((b ^ episode) + k * golden)`` (episode 0 is b).
    ``learner``: the learner's team when ``learner_team="random"``, drawn from the episode seed.
    ``opponent``: the default (uniformly random) opponent's stream, keyed on the episode seed.
    ``selfplay``: later episodes of a self-play slot (``adapters.selfplay``), as ``episode`` does.
    """

    episode: int = 0x6A3E_5EED_0E91_50DE
    learner: int = 0x1EA2_4E27_7EA3_0001
    opponent: int = 0x0990_0AE7_5EED_0002
    selfplay: int = 0x5E1F_9A7B_0B47_C003

    def __post_init__(self):
        for name in ("episode", "learner", "opponent", "selfplay"):
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                    or not (0 <= int(value) < 1 << 64):
                raise ValueError(f"EnvSalts.{name} must be an int 0..2**64-1, got {value!r}")
            object.__setattr__(self, name, int(value))


@dataclass(frozen=True)
class ObservationKind:
    """An observation form a game offers besides its ``features`` (``GameSpec.observe``), which the envs'
    ``observation=`` option picks by name.

    ``encode(state, team, config)``: batched, from ``team``'s side (an int or int [B]): an array with a
    leading batch axis, or a dict of such arrays. ``space()``: the Gymnasium space of one game's
    observation (a Box, or a Dict of Boxes keyed as ``encode``'s dict), built on first use (so that the
    protocol imports no Gymnasium).
    """

    encode: Callable[..., Any]
    space: Callable[[], Any]


@dataclass(frozen=True)
class GameSpec:
    """One game's engine, as the env layer uses it. Every callable is batched over the state's games.

    Identity and settings
      ``name``: the game's short name (``"table_football"``); PettingZoo's metadata name is
      ``f"{name}_v0"``.
      ``config_class``: a frozen, validated dataclass (a bad field raises ValueError naming it) with
      ``from_dict(dict)`` (unknown fields raise ValueError) and ``replace(**changes)``.
      ``variants``: registered variants, name -> dict of config fields each fixes (``{"clock": True}``);
      ``"basic"`` fixes nothing.

    Dealing and stepping
      ``init(batch_size, seed, config, seeds=None) -> state``: B new games; game i from the stream of
      ``seed + i`` (mod 2**64), or of ``seeds[i]`` (uint64 array [B]) when given.
      ``step(state, actions, config) -> state``: one action per game (int64 [B]); a new state (the input is
      unchanged); raises ``illegal_error`` as the module doc says.
      ``illegal_error``: the exception class of an illegal action (a ValueError), built as
      ``illegal_error(message, game=, action=, legal_actions=)``.
      ``forfeit(state, games, loser, config) -> None`` or None: in place, end ``games`` (int [k]) as a win
      for ``1 - loser`` (int [k]) in a state the game's invariants accept. None: the game has no way to
      record a forfeit, and the adapters record it themselves (the state stays where the illegal action was
      tried, and every env output shows the forfeit).

    Actions
      ``num_actions``: size of the action space. ``action_names``: tuple of ``num_actions`` stable names.
      ``action_id(name) -> int``: parse a name (ValueError for an unknown one).
      ``ignored_action``: the one id a mask row marks when the action of that row is ignored (a finished
      game, or a team that is not to act), so that no mask row is ever all zero.
      ``legal_mask(state) -> bool [B, num_actions]``: the legal actions of the team to act (all False for a
      finished game).

    Observations (from one team's side)
      ``observe(state, team, config) -> float32 [B, observation_size]``: ``team`` an int or int [B] (0/1).
      ``observation_size``: N. ``observation_layout``: name -> (slice, meaning) over the N values.
      ``observation_bounds``: (low, high), the bounds of every value.

    Turn and result
      ``to_act(state) -> int [B]``: the team to decide now, -1 once the game is over.
      ``terminated(state) -> bool [B]``: ended with a result (a win or a draw).
      ``truncated(state) -> bool [B]``: cut by the game's own cap, with no result.
      ``winner(state) -> int [B]``: 0 or 1, ``draw_value`` for a draw, -1 none (yet, or truncated).
      ``draw_value``: the winner code of a draw.
      ``score(state) -> int [B, 2]``: points of team one and team two.

    State helpers
      ``batch_size(state) -> int``; ``take(state, games) -> state`` (a copy of those games, int [k]);
      ``put(state, games, other)`` (in place: ``other``'s games into ``games``); ``copy(state) -> state``;
      ``state_class``: the state's type (to validate a state passed in).

    Text, pictures and checks
      ``render_ansi(state, game) -> str`` and ``render_rgb(state, game) -> uint8 [H, W, 3]``: one game.
      ``view(state, team) -> state`` or None: a copy with what ``team`` (0 or 1; -1 a spectator) may not see
      blanked, for the pictures a player is shown (``agents.game_play``); None: the game hides nothing.
      ``to_diagram(state, game) -> str`` and ``from_diagram(text, config) -> state`` (a batch of one;
      ValueError naming the bad line); ``check_invariants(state, config)`` raises if any game is invalid.

    Env seeding (optional)
      ``salts``: the :class:`EnvSalts` the generic env families draw each episode's randomness with
      (default: the generic adapters' own).

    Env options a game may offer (optional; the defaults keep an env as it is for every other game)
      ``observation_kinds``: name -> :class:`ObservationKind`, the forms besides ``"features"`` that the
      envs' ``observation=`` option takes (Gridiron's ``"planes"``).
      ``score_unit(config) -> float`` or None: the points one unit of the learner envs' score shaping is
      worth: with ``score_reward_scale`` c every learner step adds c * (change of own score - change of
      the other's) / ``score_unit(config)`` (Gridiron's: the target score); the AEC and self-play
      envs add c * (the step's change of that margin) to each team. None: the game offers no shaping
      (``score_reward_scale`` must be 0).
      ``orientation``: ``render_ansi`` and ``render_rgb`` take ``offence_up=`` (bool: turn the picture a
      half turn while team two is on offence), the envs' ``offence_up`` option; False: the option must
      be False.
      ``illegal_entry(state, game, given, team) -> dict`` or None: the game's own ``info["illegal_action"]``
      of action ``given`` (as passed: an int, maybe outside the space, or a bool) by ``team`` in game
      ``game`` of ``state``, its ``"reason"`` the sentence a raise says after ``"game {g}: "``; the AEC env
      puts ``"team"`` first. None: the adapters' own (``{"team", "action", "name", "reason"}``).
      ``draws``: the game can end in a draw; False: the AEC env's end-of-game infos have no ``"draw"``.

    A learner seat a game may shape (optional; None keeps the adapters' own, for every other game)
      ``learner_start(seeds, config, learner, scenario) -> state``: a learner env's new episodes when
      the start depends on the learner's team (``learner`` int [k]; ``scenario`` None or one of
      ``scenarios``), such as a drive with the learner on a fixed side. None: ``init`` / ``build``.
      ``learner_seat(state, config) -> int [k]``: the learner's team in a given position
      (``reset(options={"state": ...})``), in place of ``learner_team``. None: ``learner_team``'s.
      ``learner_reward(state, games, learner, score_before, forfeited, config) -> float64 [k]``: the
      learner's reward of a step in slots ``games`` of ``state`` (``learner`` its team, ``score_before``
      the score before its action, ``forfeited`` bool [k] lost by its illegal action) in place of +1 / -1
      at a win / loss; score shaping adds to it. None: win / loss.
      ``agent_view(state, config) -> (state, config)``: what an agent opponent (``act(state, config)``,
      or a callable with ``needs_state``) is given of the games it acts in, for a game whose state wraps
      another game's (Gridiron's drive: the engine's State and GameConfig). None: as they are.
      ``outer_state(state) -> object``: what a learner env's ``state`` shows of its state, for a game whose
      state wraps another game's (Gridiron's drive: the engine's State inside). None: the state itself.
      ``lift_state(given) -> state``: a position passed to a learner env's ``reset(options={"state": ...})``
      as the game's state (Gridiron's drive: an engine State, the drive starting there). None: as given.

    Speed (optional)
      ``step_reusing(state, actions, config) -> state`` or None: ``step`` that may update ``state`` in place
      rather than copy it first (the adapters call it only on a state of their own that the result
      replaces); None: ``step``.
      ``step_active(state, actions, active, config) -> state`` or None: ``step_reusing`` of only the games
      where ``active`` (bool [B]) is True, the others left as they are (their action ignored): the
      adapters step a few games of a batch in place of taking and putting back a sub-batch. None: they
      take and put.
      ``legal_rows(state, rows) -> bool [k, num_actions]`` or None: ``legal_mask(state)[rows]`` (``rows``
      int [k]) without building the whole batch's mask first: the adapters ask it for the few games of
      an opponent round. None: ``legal_mask`` and then the rows.

    Scenarios (optional)
      ``scenarios``: None, or a mapping name -> named starting position with ``build(seeds, config) ->
      state`` (one game per uint64 seed, its open parts drawn from the seed), which the adapters start
      from on ``reset(options={"scenario": name})`` (Gridiron's: ``gridiron_env.scenarios.SCENARIOS``).
    """

    name: str
    config_class: type
    init: Callable[..., Any]
    step: Callable[..., Any]
    illegal_error: type
    num_actions: int
    action_names: tuple
    action_id: Callable[[str], int]
    ignored_action: int
    legal_mask: Callable[[Any], np.ndarray]
    observe: Callable[..., np.ndarray]
    observation_size: int
    observation_layout: dict
    observation_bounds: tuple
    to_act: Callable[[Any], np.ndarray]
    terminated: Callable[[Any], np.ndarray]
    truncated: Callable[[Any], np.ndarray]
    winner: Callable[[Any], np.ndarray]
    draw_value: int
    score: Callable[[Any], np.ndarray]
    batch_size: Callable[[Any], int]
    take: Callable[..., Any]
    put: Callable[..., None]
    copy: Callable[[Any], Any]
    state_class: type
    render_ansi: Callable[..., str]
    render_rgb: Callable[..., np.ndarray]
    to_diagram: Callable[..., str]
    from_diagram: Callable[..., Any]
    check_invariants: Callable[..., None]
    forfeit: Callable[..., None] | None = None
    variants: dict = field(default_factory=lambda: {"basic": {}})
    view: Callable[..., Any] | None = None
    scenarios: Any = None
    salts: EnvSalts = field(default_factory=EnvSalts)
    observation_kinds: dict = field(default_factory=dict)
    score_unit: Callable[[Any], float] | None = None
    orientation: bool = False
    illegal_entry: Callable[..., dict] | None = None
    draws: bool = True
    step_reusing: Callable[..., Any] | None = None
    step_active: Callable[..., Any] | None = None
    legal_rows: Callable[..., np.ndarray] | None = None
    learner_start: Callable[..., Any] | None = None
    learner_seat: Callable[..., np.ndarray] | None = None
    learner_reward: Callable[..., np.ndarray] | None = None
    agent_view: Callable[..., tuple] | None = None
    outer_state: Callable[..., Any] | None = None
    lift_state: Callable[..., Any] | None = None

    def __post_init__(self):
        if "features" in self.observation_kinds or not all(
                isinstance(k, str) and isinstance(v, ObservationKind) for k, v in self.observation_kinds.items()):
            raise ValueError(f"GameSpec {self.name!r}: observation_kinds must map names other than 'features' "
                             "to ObservationKind records")
        if not isinstance(self.salts, EnvSalts):
            raise ValueError(f"GameSpec {self.name!r}: salts must be an EnvSalts, got {self.salts!r}")
        if len(self.action_names) != self.num_actions:
            raise ValueError(f"GameSpec {self.name!r}: {len(self.action_names)} action names for "
                             f"{self.num_actions} actions")
        if not (0 <= self.ignored_action < self.num_actions):
            raise ValueError(f"GameSpec {self.name!r}: ignored_action must be an action id")
        if self.draw_value in (NO_WINNER, 0, 1):
            raise ValueError(f"GameSpec {self.name!r}: draw_value must differ from -1, 0 and 1")

    def __reduce__(self):
        # pickled by name (its members include lambdas): a registered game unpickles as the registered spec
        if _GAMES.get(self.name) is self:
            return get_game, (self.name,)
        raise TypeError(f"GameSpec {self.name!r} is not the registered game of that name; it cannot be pickled")

    def action_name(self, action) -> str:
        """The stable name of an action id (ValueError outside the space; a bool is not an id)."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action id must be an int, got {action!r}")
        if not (0 <= int(action) < self.num_actions):
            raise ValueError(f"action id {action!r} is outside 0..{self.num_actions - 1}")
        return self.action_names[int(action)]

    def over(self, state) -> np.ndarray:
        """bool [B]: the game is over (terminated or truncated)."""
        return self.terminated(state) | self.truncated(state)

    def make_config(self, config=None, variant: str = "basic"):
        """The config of an env: ``config`` None (the variant's default), a ``config_class`` instance, or a
        dict of its fields over the variant's default. A given config must agree with the fields the
        variant fixes (ValueError naming the field otherwise)."""
        if not (isinstance(variant, str) and variant in self.variants):
            raise ValueError(f"variant must be one of {tuple(self.variants)}, got {variant!r}")
        fixed = self.variants[variant]
        cls = self.config_class
        if config is None:
            return cls(**fixed)
        if isinstance(config, dict):
            if _conflicts(fixed, config):
                _raise_conflict(cls, fixed, config, variant)
            return cls.from_dict({**fixed, **config})
        if isinstance(config, cls):
            bad = {k: v for k, v in fixed.items() if getattr(config, k) != v}
            if bad:
                _raise_conflict(cls, fixed, {k: getattr(config, k) for k in bad}, variant)
            return config
        raise ValueError(f"config must be None, a {cls.__name__} or a dict of its fields, "
                         f"got {type(config).__name__}")


def _conflicts(fixed: dict, given: dict) -> bool:
    return any(k in given and given[k] != v for k, v in fixed.items())


def _raise_conflict(cls, fixed, given, variant):
    name = next(k for k, v in fixed.items() if k in given and given[k] != v)
    raise ValueError(f"{cls.__name__}.{name} must be {fixed[name]!r} in the {variant!r} variant, "
                     f"got {given[name]!r}")


def array_state_members(state_class) -> dict:
    """The :class:`GameSpec` members that read a struct-of-arrays state with the usual field names
    (``to_act``, ``terminated``, ``truncated``, ``winner``, ``score``) and methods (``batch_size``,
    ``take``, ``put``, ``copy``), as keywords for ``GameSpec(...)``; a game overrides any of them."""
    return dict(
        to_act=lambda s: s.to_act.astype(np.int64),
        terminated=lambda s: s.terminated.copy(),
        truncated=lambda s: s.truncated.copy(),
        winner=lambda s: s.winner.astype(np.int64),
        score=lambda s: s.score.astype(np.int64),
        batch_size=lambda s: s.batch_size,
        take=lambda s, games: s.take(games),
        put=lambda s, games, other: s.put(games, other),
        copy=lambda s: s.copy(),
        state_class=state_class,
    )


_GAMES: dict[str, Any] = {}  # name -> GameSpec, or its "module:attribute" path until first use


def register_game(name: str, spec) -> None:
    """Make a game known by ``name``: a :class:`GameSpec` or its ``"module:attribute"`` path (imported on
    first :func:`get_game`)."""
    _GAMES[name] = spec


def get_game(name) -> GameSpec:
    """The :class:`GameSpec` of a registered game (a GameSpec passes through); ValueError for another."""
    if isinstance(name, GameSpec):
        return name
    if not (isinstance(name, str) and name in _GAMES):
        raise ValueError(f"game must be one of {game_names()} (or a GameSpec), got {name!r}")
    spec = _GAMES[name]
    if isinstance(spec, str):
        module, _, attribute = spec.partition(":")
        spec = getattr(importlib.import_module(module), attribute)
        _GAMES[name] = spec
    return spec


def game_names() -> tuple:
    return tuple(_GAMES)


def check_game(spec: GameSpec, config=None, seed: int = 0, batch_size: int = 6, max_steps: int = 400) -> int:
    """Check that ``spec`` meets the protocol by playing ``batch_size`` games with uniformly random legal
    actions (from ``seed``) for up to ``max_steps`` steps; raise AssertionError naming the first broken
    promise. Returns the number of steps played. Checks: shapes and dtypes of every member, observation
    bounds, ``to_act`` -1 exactly when the game is over and then an all-False mask, result codes, every game
    of the batch equal to a lone game of seed ``seed + i`` (the same actions), an illegal action raising
    ``illegal_error`` with the state untouched, the invariants, the drawings and the diagram round trip."""
    config = spec.make_config(config)
    rng = np.random.default_rng(seed)
    B, A = batch_size, spec.num_actions
    state = spec.init(B, seed, config)
    lones = [spec.init(1, 0, config, seeds=np.array([seed + i], dtype=np.uint64)) for i in range(B)]
    low, high = spec.observation_bounds
    steps = 0
    for steps in range(1, max_steps + 1):
        spec.check_invariants(state, config)
        legal, to_act, over = spec.legal_mask(state), spec.to_act(state), spec.over(state)
        assert legal.dtype == np.bool_ and legal.shape == (B, A), "legal_mask must be bool [B, num_actions]"
        assert np.array_equal(to_act < 0, over), "to_act must be -1 exactly when the game is over"
        assert not legal[over].any() and legal[~over].any(axis=1).all(), "a live game needs a legal action"
        if spec.legal_rows is not None:
            for rows in (np.arange(B), np.flatnonzero(~over), np.flatnonzero(over), np.arange(B)[::-2]):
                assert np.array_equal(spec.legal_rows(state, rows), legal[rows]), "legal_rows must be legal_mask's rows"
        winner = spec.winner(state)
        assert np.isin(winner, (NO_WINNER, 0, 1, spec.draw_value)).all(), "winner codes: -1, 0, 1, draw_value"
        assert (winner[~spec.terminated(state)] == NO_WINNER).all(), "a winner in a game that is not over"
        assert spec.score(state).shape == (B, 2), "score must be int [B, 2]"
        for team in TEAMS:
            obs = spec.observe(state, team, config)
            assert obs.dtype == np.float32 and obs.shape == (B, spec.observation_size), "observe: float32 [B, N]"
            assert ((obs >= low) & (obs <= high)).all(), "an observation outside observation_bounds"
        for i in range(B):
            one = spec.take(state, [i])
            assert spec.to_diagram(one, 0) == spec.to_diagram(lones[i], 0), f"game {i} differs from a lone game"
            assert np.array_equal(spec.observe(one, 0, config), spec.observe(lones[i], 0, config))
            assert isinstance(spec.render_ansi(state, i), str)
        if over.all():
            break
        live = np.flatnonzero(~over)
        g = int(live[0])
        illegal = np.flatnonzero(~legal[g])
        if illegal.size:
            before = spec.copy(state)
            bad = np.array([int(np.flatnonzero(legal[j])[0]) if j != g and not over[j] else spec.ignored_action
                            for j in range(B)], dtype=np.int64)
            bad[g] = illegal[0]
            try:
                spec.step(state, bad, config)
            except spec.illegal_error:
                pass
            else:
                raise AssertionError("an illegal action must raise illegal_error")
            assert spec.to_diagram(before, g) == spec.to_diagram(state, g), "an illegal action changed the state"
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else spec.ignored_action for row in legal],
                           dtype=np.int64)
        state = spec.step(state, actions, config)
        lones = [spec.step(lones[i], actions[i:i + 1], config) for i in range(B)]
    frame = spec.render_rgb(state, 0)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3, "render_rgb: uint8 [H, W, 3]"
    for i in range(B):
        text = spec.to_diagram(state, i)
        assert spec.to_diagram(spec.from_diagram(text, config), 0) == text, "the diagram does not round-trip"
    return steps


register_game("gridiron", "gridiron_env.gridiron.game:GAME")
register_game("table_football", "gridiron_env.table_football.game:GAME")
register_game("sports_dice", "gridiron_env.sports_dice.game:GAME")
register_game("touchdown", "gridiron_env.touchdown.game:GAME")
register_game("touchdown_drive", "gridiron_env.touchdown.game:DRIVE")
register_game("gridiron_drive", "gridiron_env.gridiron.drive:DRIVE")
