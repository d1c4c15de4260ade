"""Shared test helpers and settings.

Hypothesis runs a fixed, capped profile ("ci", derandomized) so that a run is reproducible; set
HYPOTHESIS_PROFILE=dev for a longer, randomized search.

``engine_path`` runs a test over both step paths of a batch of one (the rule tests use it for every test):
``"batched"``, the vectorised handlers, and ``"lone"``, core/lone.py, which ``engine.step`` takes for a
batch of one. The helpers below are imported by the test modules (``from conftest import ...``).
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], database=None)
settings.register_profile("dev", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ENGINE_PATHS = ("batched", "lone")

# Touchdown's whole game (4 quarters of 15 scrimmages) is about 5,000 random actions, 4 CPU seconds a lone
# game: the generic whole-game checks over every registered game play it as two quarters of four scrimmages
# (a few hundred actions, the second quarter's kick-off kept) in the default suite, and whole games under -m slow.
SHORT_GAMES = {"touchdown": {"quarters": 2, "scrimmages_per_quarter": 4}}


def short_config(name: str):
    """The config overrides (a dict, or None for the variant's own) under which the default suite plays whole
    games of the registered game ``name``."""
    return SHORT_GAMES.get(name)


def game_cases():
    """pytest params (name, variant, config overrides) of every registered game and variant, each under its
    short_config (ids "name-variant"), then the whole games of SHORT_GAMES, marked slow ("name-basic-whole")."""
    from gridiron_env.protocol import game_names, get_game

    cases = [pytest.param(n, v, short_config(n), id=f"{n}-{v}") for n in game_names() for v in get_game(n).variants]
    return cases + [pytest.param(n, "basic", None, id=f"{n}-basic-whole", marks=pytest.mark.slow) for n in SHORT_GAMES]


@pytest.fixture(params=ENGINE_PATHS)
def engine_path(request, monkeypatch):
    """The step path of a batch of one for this test: ``"batched"`` switches the lone path off (every step
    goes through the vectorised handlers); ``"lone"`` leaves it on and counts the steps it took (the list
    ``engine_path_taken``, one entry per step of a batch of one: True when the lone path played it)."""
    from gridiron_env.core import engine

    real = engine._lone.step_one
    taken = []
    if request.param == "batched":
        monkeypatch.setattr(engine._lone, "step_one", lambda *args: None)
    else:
        def spy(*args):
            out = real(*args)
            taken.append(out is not None)
            return out

        monkeypatch.setattr(engine._lone, "step_one", spy)
    request.node.engine_path_taken = taken
    return request.param


@pytest.fixture
def vectorised_batches(monkeypatch):
    """Every batch of more than one game steps through the vectorised handlers (engine.LONE_BATCH_LIMIT
    1): for the tests whose reference for the batched path is a small batch."""
    from gridiron_env.core import engine

    monkeypatch.setattr(engine, "LONE_BATCH_LIMIT", 1)


def legal(state, name: str, game: int = 0) -> bool:
    """The action ``name`` is legal in game ``game`` of ``state``."""
    from gridiron_env import action_id

    return bool(state.legal[game, action_id(name)])


def batch_of(state, n: int, seed: int):
    """``n`` copies of a one-game state, each game with its own random stream (game i: ``seed + i``)."""
    from gridiron_env.core.chance import game_keys
    from gridiron_env.core.state import State

    batch = State.concatenate([state] * n)
    batch.rng_key[:] = game_keys(seed, n)
    batch.rng_counter[:] = 0
    return batch


def benchmark_module(name: str):
    """The script ``benchmarks/<name>.py`` loaded as a module (the folder is not a package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_bot(widths=(16,), seed: int = 0, weight_std: float = 0.1, bias_std: float = 0.0, one_net: bool = False):
    """A ``agents.bot.Bot`` of random weights (normal, ``weight_std``; biases ``bias_std``, zero for 0) with
    hidden ``widths``: legal but aimless football. ``one_net``: the offence and the defence share one net
    (else the offence's is drawn first)."""
    import numpy as np

    from agents.bot import Bot
    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURES_SIZE

    rng = np.random.default_rng(seed)
    sizes = [FEATURES_SIZE, *widths, NUM_ACTIONS]

    def net():
        return [(rng.normal(0, weight_std, (a, b)).astype(np.float32),
                 rng.normal(0, bias_std, b).astype(np.float32) if bias_std else np.zeros(b, np.float32))
                for a, b in zip(sizes, sizes[1:])]

    offence = net()
    defence = offence if one_net else net()
    return Bot(offence, defence, "tanh", FEATURE_LAYOUT["on_offence"][0].start, FEATURES_SIZE, NUM_ACTIONS)
