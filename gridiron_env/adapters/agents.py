"""Agents for any protocol game: the agent protocol, a uniformly random agent, a net agent, agent specs.

An **agent** plays one side of a batch of games of one :class:`~gridiron_env.protocol.GameSpec`, as in
``agents/base.py``:

- ``name: str``, a short label for reports;
- ``reset(seeds)``: before a batch of games, one seed per game (an int array); an agent keeps one random
  stream per game keyed on it, so what it does in game i depends only on game i's seed and history;
- ``act(state, config, games=None) -> int64 [B]``: for every game in ``games`` (default: all) a legal
  action of the team to act (``game.to_act``); other entries may hold anything.

Table Football's ``OptimalAgent`` / ``RandomAgent`` / ``FixedAgent`` keep this protocol; so do
:class:`RandomGameAgent` and :class:`NetAgent` here, written once for every game.

Agent specs (:func:`make_agent`, used by ``train.game_tournament`` and ``agents.game_play``):

- ``random``: :class:`RandomGameAgent`;
- ``bot:PATH`` or ``bot:PATH@TEMPERATURE``: a numpy game-bot file (``train.game_export``; temperature 0,
  the default, plays the best action); ``onnx:PATH``: an exported ONNX game bot (needs onnxruntime);
- any other ``KIND`` or ``KIND:ARG``: an agent class of the game's own ``agents`` module (the module
  ``agents`` of the package that defines the game's engine, e.g. ``gridiron_env.table_football.agents``),
  found by its class name without ``Agent`` (``OptimalAgent`` -> ``optimal``, ``FixedAgent`` -> ``fixed``)
  or by its ``name`` attribute; it gets ``config=`` when its constructor takes one, and ARG (a number if it
  reads as one) as its first argument (``fixed:0.3``).

A game may instead have a spec table of its own (:func:`register_agent_specs`): its kinds come first.
Gridiron's (:func:`gridiron_agent_specs`) are the names ``train.tournament`` and ``agents.play`` use, for
agents that live in the top-level ``agents`` package (imported only when a spec asks for one: ``agents``
imports ``gridiron_env``, so an import here would be a cycle): ``random`` (:class:`RandomGameAgent`, as
for every game), ``heuristic[:SPECIAL]``, ``first``, ``search[:ROLLOUTS[:POLICY]]`` (``agents.search``),
``bot`` (the shipped bot, ``gridiron_env/data/bot.npz``), ``bot:PATH[@TEMPERATURE]`` (a
``gridiron-bot-v1`` file of ``agents.bot``, or a ``game-bot-v1`` file of ``train.game_export`` for
Gridiron), ``onnx:PATH`` (``train.export``'s ONNX bot), every panel style by its name (``power_run``,
``spread_pass``, ...: ``agents.panel.PANEL``) and a team of two styles ``OFFENCE+DEFENCE``
(``agents.panel.composite``, e.g. ``spread_pass+power_run``).

Prefix ``NAME=`` to name an agent (``strong=bot:b.npz``). A bad spec raises ValueError saying what is
allowed; a bad bot file raises ``train.game_export.GameBotFileError`` or ``agents.bot.BotFileError``
(both ValueErrors) naming the file.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from pathlib import Path

import numpy as np

from ..core.chance import splitmix64
from ..protocol import GameSpec, get_game
from .common import uniform_legal

__all__ = ["RandomGameAgent", "NetAgent", "make_agent", "game_agent_classes", "agent_kinds",
           "register_agent_specs", "gridiron_agent_specs", "split_bot_temperature"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
SHIPPED_GRIDIRON_BOT = Path(__file__).resolve().parent.parent / "data" / "bot.npz"  # the spec ``bot``


class DecisionStreams:
    """One counter-based stream of uniform floats per game, keyed on the game's seed and advanced by one
    on each decision the agent takes in that game, so a game's draws depend only on (seed, the agent's
    decisions so far in it), whatever the batch or the calling pattern."""

    def __init__(self, salt: int):
        self.salt = np.uint64(salt)
        self.keys = np.zeros(0, dtype=np.uint64)
        self.counters = np.zeros(0, dtype=np.uint64)

    def reset(self, seeds) -> None:
        seeds = np.asarray(seeds)
        if seeds.dtype.kind == "i":
            seeds = seeds.astype(np.int64).astype(np.uint64)  # negative ints wrap, as the engines' seeds do
        self.keys = splitmix64(seeds.astype(np.uint64) ^ self.salt)
        self.counters = np.zeros(self.keys.size, dtype=np.uint64)

    def ensure(self, batch_size: int) -> None:
        """Key games 0..batch_size-1 on seeds 0, 1, ... if ``reset`` was not called for this batch."""
        if self.keys.size < batch_size:
            self.reset(np.arange(batch_size))

    def draw(self, games) -> np.ndarray:
        """float64 [k]: the next uniform in [0, 1) of each game in ``games`` (each counter moves on by one)."""
        with np.errstate(over="ignore"):
            bits = splitmix64(self.keys[games] + self.counters[games] * _GOLDEN)
        self.counters[games] += np.uint64(1)
        return (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _games(game: GameSpec, state, games) -> np.ndarray:
    """The games of ``games`` (default all) that are live (someone is to act)."""
    n = game.batch_size(state)
    games = np.arange(n) if games is None else np.asarray(games, dtype=np.int64).reshape(-1)
    return games[game.to_act(state)[games] >= 0]


class RandomGameAgent:
    """A uniformly random legal action of the team to act, from one stream per game (:class:`DecisionStreams`).
    ``game``: a registered name or a GameSpec."""

    name = "random"
    _SALT = 0x2A4D_0A6E_47A1_0001

    def __init__(self, game="table_football"):
        self.game = get_game(game)
        self.streams = DecisionStreams(self._SALT)

    def reset(self, seeds) -> None:
        self.streams.reset(seeds)

    def act(self, state, config=None, games=None) -> np.ndarray:
        game = self.game
        n = game.batch_size(state)
        actions = np.full(n, game.ignored_action, dtype=np.int64)
        live = _games(game, state, games)
        if live.size:
            self.streams.ensure(n)
            sub = state if live.size == n else game.take(state, live)
            actions[live] = uniform_legal(game.legal_mask(sub), self.streams.draw(live))
        return actions


class NetAgent:
    """A policy net as an agent: it sees only ``game.observe`` from the acting team's side and the legal
    mask. ``net`` is any object with ``act(observation float32 [k, N], mask [k, A], temperature,
    uniforms=None) -> int [k]`` (``train.game_export.GameBot`` or ``GameOnnxBot``). ``temperature`` 0
    plays the best legal action; above 0 it samples, from per-game streams."""

    _SALT = 0x0B07_6A3E_0000_0001

    def __init__(self, net, game="table_football", name: str = "bot", temperature: float = 0.0):
        if isinstance(temperature, bool) or not (0 <= float(temperature) < float("inf")):
            raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
        self.net = net
        self.game = get_game(game)
        self.name = name
        self.temperature = float(temperature)
        self.streams = DecisionStreams(self._SALT)

    def reset(self, seeds) -> None:
        self.streams.reset(seeds)

    def act(self, state, config=None, games=None) -> np.ndarray:
        game = self.game
        n = game.batch_size(state)
        actions = np.full(n, game.ignored_action, dtype=np.int64)
        live = _games(game, state, games)
        if live.size:
            sub = state if live.size == n else game.take(state, live)
            obs = game.observe(sub, game.to_act(sub), config)
            uniforms = None
            if self.temperature > 0:
                self.streams.ensure(n)
                uniforms = self.streams.draw(live)
            actions[live] = self.net.act(obs, game.legal_mask(sub), self.temperature, uniforms=uniforms)
        return actions


# --------------------------------------------------------------------------------------------- specs

def _game_agents_module(game: GameSpec):
    """The ``agents`` module of the package that defines the game's engine, or None."""
    module = getattr(game.init, "__module__", None) or ""
    candidates = []
    if "." in module:
        candidates.append(module.rsplit(".", 1)[0] + ".agents")
    candidates.append(f"gridiron_env.{game.name}.agents")
    for name in candidates:
        try:
            if importlib.util.find_spec(name) is not None:
                return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    return None


def game_agent_classes(game) -> dict:
    """kind -> agent class of the game's own ``agents`` module (see the module docstring)."""
    game = get_game(game)
    module = _game_agents_module(game)
    if module is None:
        return {}
    found = {}
    for cls_name, cls in vars(module).items():
        if not (inspect.isclass(cls) and cls.__module__ == module.__name__ and cls_name.endswith("Agent")
                and callable(getattr(cls, "act", None)) and callable(getattr(cls, "reset", None))):
            continue
        found[cls_name[:-len("Agent")].lower()] = cls
        label = getattr(cls, "name", None)
        if isinstance(label, str) and label.isidentifier():
            found.setdefault(label.lower(), cls)
    return found


# A game's own spec table: game name -> a callable returning {kind: (usage, make(arg, config))}; ``arg`` is
# the text after ``KIND:`` (None without a colon), ``make`` returns an agent or raises ValueError.
_SPEC_TABLES: dict = {}


def register_agent_specs(game_name: str, table) -> None:
    """Give the game ``game_name`` its own agent kinds: ``table()`` returns ``{kind: (usage, make)}`` with
    ``make(arg, config)`` an agent (``arg`` the text after ``KIND:``, None without a colon), raising
    ValueError for a bad argument. A kind ``"*"`` is asked for any other kind, ``make(kind, arg, config)``,
    returning None when it is not one (Gridiron's ``OFFENCE+DEFENCE`` teams). Called lazily, per spec."""
    if not isinstance(game_name, str) or not callable(table):
        raise ValueError(f"register_agent_specs needs a game name and a callable, got {game_name!r}, {table!r}")
    _SPEC_TABLES[game_name] = table


def _spec_table(game: GameSpec) -> dict:
    table = _SPEC_TABLES.get(game.name)
    return table() if table is not None else {}


def agent_kinds(game) -> tuple:
    """Every agent kind a spec may name for ``game``."""
    game = get_game(game)
    table = _spec_table(game)
    if table:
        return tuple(usage for usage, _ in table.values())
    own = sorted(k for k in game_agent_classes(game) if k != "random")
    return ("random", "bot:PATH[@TEMPERATURE]", "onnx:PATH", *own)


def split_bot_temperature(arg: str):
    """``PATH`` or ``PATH@TEMPERATURE`` -> (path, temperature >= 0); a tail that is no number stays in the
    path (a file name may hold an @)."""
    path, temperature = arg, 0.0
    body, at, tail = arg.rpartition("@")
    if at:
        try:
            temperature = float(tail)
        except ValueError:
            body = None
        if body is not None:
            path = body
    if not 0 <= temperature < float("inf"):
        raise ValueError(f"a bot's temperature must be a number >= 0, got {tail}")
    return path, temperature


def _no_arg(kind: str, make):
    """A maker for a kind that takes no argument."""
    def maker(arg, config):
        if arg is not None:
            raise ValueError(f"the {kind} agent takes no argument (use {kind!r})")
        return make()
    return maker


def _gridiron_heuristic(arg, config):
    from agents.heuristic import HeuristicAgent

    if arg is None:
        return HeuristicAgent()
    agent = HeuristicAgent(special=arg)
    agent.name = f"heuristic:{arg}"
    return agent


def _gridiron_search(arg, config):
    from agents.search import make_search_agent

    return make_search_agent(arg or "")


def _gridiron_first():
    from train.tournament import FirstLegalAgent

    return FirstLegalAgent()


def _gridiron_bot(arg, config):
    """The shipped bot (no argument) or a bot file: ``agents.bot``'s format, else ``train.game_export``'s."""
    from agents.bot import BotAgent, BotFileError

    if arg is None:
        return BotAgent.load(SHIPPED_GRIDIRON_BOT, name="bot")
    if not arg:
        raise ValueError("bot: needs a file (bot:PATH[@TEMPERATURE]), or use 'bot' for the shipped bot")
    path, temperature = split_bot_temperature(arg)
    name = f"bot:{Path(path).stem}" + (f"@{temperature:g}" if temperature > 0 else "")
    try:
        return BotAgent.load(path, name=name, temperature=temperature)
    except BotFileError as err:
        from train.game_export import GameBot, GameBotFileError

        try:  # a bot of the generic export (train.game_export) for Gridiron
            net = GameBot.load(path, game="gridiron")
        except GameBotFileError:
            raise err from None
        return NetAgent(net, "gridiron", name=name, temperature=temperature)


def _gridiron_onnx(arg, config):
    if not arg:
        raise ValueError("onnx needs a file: onnx:PATH")
    from train.tournament import OnnxAgent

    return OnnxAgent(arg, name=f"onnx:{Path(arg).stem}")


def _gridiron_team(kind, arg, config):
    """``OFFENCE+DEFENCE``: a team of two panel styles (``agents.panel.composite``), or None."""
    if "+" not in kind:
        return None
    if arg is not None:
        raise ValueError(f"a team of two styles takes no argument (use {kind!r})")
    from agents.panel.composite import composite_from_name

    return composite_from_name(kind)


def gridiron_agent_specs() -> dict:
    """Gridiron's agent kinds (see the module docstring): ``{kind: (usage, make(arg, config))}``."""
    from agents.panel import PANEL

    table = {
        # the generic uniform agent (its streams are the ones the generic play command and tests replay;
        # agents.random_agent.RandomAgent is uniform too, from other streams)
        "random": ("random", _no_arg("random", lambda: RandomGameAgent("gridiron"))),
        "heuristic": ("heuristic[:SPECIAL]", _gridiron_heuristic),
        "first": ("first", _no_arg("first", _gridiron_first)),
        "search": ("search[:ROLLOUTS[:POLICY]]", _gridiron_search),
        "bot": ("bot, bot:PATH[@TEMPERATURE]", _gridiron_bot),
        "onnx": ("onnx:PATH", _gridiron_onnx),
    }
    for style, cls in PANEL.items():
        table[style] = (style, _no_arg(style, cls))
    table["*"] = ("OFFENCE+DEFENCE (two panel styles, e.g. spread_pass+power_run)", _gridiron_team)
    return table


register_agent_specs("gridiron", gridiron_agent_specs)


def _number(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_agent(spec: str, game="table_football", config=None):
    """An agent of ``game`` from a spec (see the module docstring); ValueError for a bad spec."""
    game = get_game(game)
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty str, got {spec!r}")
    text = spec.strip()
    label = None
    head = text.split(":", 1)[0]
    if "=" in head:
        label, text = text.split("=", 1)
        label, text = label.strip(), text.strip()
        if not label:
            raise ValueError(f"empty agent name in {spec!r}")
    kind, colon, arg = text.partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    table = _spec_table(game)
    if table:
        agent = None
        try:
            if kind in table and kind != "*":
                agent = table[kind][1](arg if colon else None, config)
            elif "*" in table:
                agent = table["*"][1](kind, arg if colon else None, config)
        except ValueError as err:
            if type(err) is not ValueError:  # a bot file's own error (BotFileError) names the file: keep it
                raise
            raise ValueError(f"agent spec {spec!r}: {err}") from None
        if agent is None:
            raise ValueError(f"unknown agent spec {spec!r} for {game.name}: use "
                             + ", ".join(agent_kinds(game)) + ", optionally prefixed NAME=")
    elif kind == "random" and not colon:
        agent = RandomGameAgent(game)
    elif kind == "bot" and arg:
        from train.game_export import GameBot

        path, temperature = split_bot_temperature(arg)
        name = f"bot:{Path(path).stem}" + (f"@{temperature:g}" if temperature > 0 else "")
        agent = NetAgent(GameBot.load(path, game=game), game, name=name, temperature=temperature)
    elif kind == "onnx" and arg:
        from train.game_export import GameOnnxBot

        agent = NetAgent(GameOnnxBot(arg, game=game), game, name=f"onnx:{Path(arg).stem}")
    else:
        classes = game_agent_classes(game)
        cls = classes.get(kind) if kind != "random" else None
        if cls is None:
            raise ValueError(f"unknown agent spec {spec!r} for {game.name}: use "
                             + ", ".join(agent_kinds(game)) + ", optionally prefixed NAME=")
        kwargs = {}
        try:
            params = inspect.signature(cls).parameters
        except (TypeError, ValueError):
            params = {}
        if "config" in params and config is not None:
            kwargs["config"] = config
        positional = [p for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if colon and (not positional or positional[0].name in ("config", "game", "solution")):
            raise ValueError(f"agent spec {spec!r}: the {kind} agent takes no argument (use {kind!r})")
        try:
            agent = cls(_number(arg), **kwargs) if colon else cls(**kwargs)
        except (TypeError, ValueError) as err:
            raise ValueError(f"agent spec {spec!r}: {err}") from None
    if label:
        agent.name = label
    return agent
