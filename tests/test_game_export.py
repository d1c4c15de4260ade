"""train.game_export: the numpy and ONNX game bots choose what the torch policy chooses; bad files are refused."""

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from conftest import short_config
from gridiron_env.adapters.agents import NetAgent, RandomGameAgent, make_agent
from gridiron_env.protocol import game_names, get_game
from train import game_export as ge
from train.game_export import GameBot, GameBotFileError, GameOnnxBot, export_policy

torch = pytest.importorskip("torch")

GAMES = list(game_names())
LONG_GAMES = ("gridiron",)  # games of hundreds of decisions: no whole games in the default suite


def _sb3_policy(game, activation="tanh", seed=0):
    """A MaskablePPO MlpPolicy of ``game`` (random weights)."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    torch.manual_seed(seed)
    low, high = game.observation_bounds
    obs_space = spaces.Box(low, high, (game.observation_size,), np.float32)
    act_fn = torch.nn.Tanh if activation == "tanh" else torch.nn.ReLU
    return MaskableActorCriticPolicy(obs_space, spaces.Discrete(game.num_actions), lambda _: 1e-3,
                                     net_arch=dict(pi=[32, 16], vf=[8]), activation_fn=act_fn)


def _probe(game, n=3000, seed=0):
    """Random observations within the bounds (and a few at them) and random masks with a legal action."""
    rng = np.random.default_rng(seed)
    low, high = game.observation_bounds
    obs = rng.uniform(low, high, (n, game.observation_size)).astype(np.float32)
    obs[:50] = rng.choice([low, high, 0.0], (50, game.observation_size))
    mask = rng.random((n, game.num_actions)) < 0.4
    mask[np.arange(n), rng.integers(0, game.num_actions, n)] = True
    return obs, mask


def _torch_actions(policy, obs, mask):
    with torch.no_grad():
        x = torch.from_numpy(obs)
        if hasattr(policy, "mlp_extractor"):
            logits = policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(x)))
        else:
            logits = policy(x)
    logits = logits.numpy()
    return np.where(mask, logits, -np.inf).argmax(axis=1), logits


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_numpy_bot_chooses_as_the_torch_policy(tmp_path, name, activation):
    game = get_game(name)
    policy = _sb3_policy(game, activation)
    obs, mask = _probe(game)
    want, logits = _torch_actions(policy, obs, mask)
    # MaskablePPO's own deterministic masked choice is the masked argmax we compare against (up to float
    # ties: it takes the argmax of softmax probabilities)
    with torch.no_grad():
        sb3 = policy._predict(torch.from_numpy(obs), deterministic=True, action_masks=mask).numpy()
    rows = np.arange(obs.shape[0])
    assert mask[rows, sb3].all()
    np.testing.assert_allclose(logits[rows, sb3], logits[rows, want], rtol=0, atol=1e-5)
    assert (sb3 == want).mean() > 0.99
    export_policy(policy, tmp_path / "bot.npz", name, variant="basic")
    bot = GameBot.load(tmp_path / "bot.npz", game=name)
    assert bot.activation == activation and bot.variant == "basic" and len(bot.layers) == 3
    np.testing.assert_allclose(bot.logits(obs), logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(bot.act(obs, mask), want)
    assert GameBot.load(tmp_path / "bot.npz").game is game  # the file names its game


@pytest.mark.parametrize("name", GAMES)
def test_onnx_bot_chooses_as_the_torch_policy(tmp_path, name):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnxscript")
    game = get_game(name)
    policy = _sb3_policy(game, seed=1)
    obs, mask = _probe(game, seed=1)
    want, logits = _torch_actions(policy, obs, mask)
    export_policy(policy, tmp_path / "bot.npz", name, onnx_path=tmp_path / "bot.onnx", variant="basic")
    onnx_bot = GameOnnxBot(tmp_path / "bot.onnx", game=name)
    action, onnx_logits = onnx_bot.run(obs, mask)
    np.testing.assert_allclose(onnx_logits, logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(action, want)
    np.testing.assert_array_equal(GameBot.load(tmp_path / "bot.npz").act(obs, mask), action)
    assert onnx_bot.variant == "basic"
    # as an agent: legal moves through a whole tournament, the same as the numpy bot's
    from train.game_tournament import run_game_tournament

    if name in LONG_GAMES:
        return
    results = [run_game_tournament({"random": RandomGameAgent(name), "bot": make_agent(spec, name)}, 6, game=name,
                                   config=short_config(name))
               for spec in (f"bot:{tmp_path / 'bot.npz'}", f"onnx:{tmp_path / 'bot.onnx'}")]
    np.testing.assert_array_equal(results[0].winner, results[1].winner)
    np.testing.assert_array_equal(results[0].score, results[1].score)


def test_other_policy_forms_and_sampling(tmp_path):
    game = get_game("table_football")
    net = torch.nn.Sequential(torch.nn.Linear(game.observation_size, 12), torch.nn.ReLU(),
                              torch.nn.Linear(12, game.num_actions))
    obs, mask = _probe(game, 500)
    want, _ = _torch_actions(net, obs, mask)
    bot = export_policy(net, tmp_path / "seq.npz", game)
    np.testing.assert_array_equal(bot.act(obs, mask), want)
    layers = [(w, b) for w, b in bot.layers]
    flat = {"activation": "relu", **{f"w{i}": w for i, (w, _) in enumerate(layers)},
            **{f"b{i}": b for i, (_, b) in enumerate(layers)}}
    for form in ({"layers": layers, "activation": "relu"}, flat, bot):
        np.testing.assert_array_equal(export_policy(form, tmp_path / "d.npz", game).act(obs, mask), want)
    # sampling: always legal, reproducible from the uniforms, and nearly the argmax at a low temperature
    u = np.random.default_rng(0).random(obs.shape[0])
    hot = bot.act(obs, mask, temperature=5.0, uniforms=u)
    assert mask[np.arange(obs.shape[0]), hot].all()
    np.testing.assert_array_equal(hot, bot.act(obs, mask, temperature=5.0, uniforms=u))
    assert (hot != want).any()
    assert (bot.act(obs, mask, temperature=1e-4, uniforms=u) == want).mean() > 0.98
    # a sampling net agent's games depend on the seed, not on the batch
    agent = NetAgent(bot, game, temperature=2.0)
    state = game.init(4, seed=10)
    agent.reset(np.arange(10, 14))
    together = agent.act(state, None)
    for i in range(4):
        agent.reset(np.array([10 + i]))
        assert agent.act(game.take(state, [i]), None)[0] == together[i]


def test_export_refuses_nets_that_do_not_fit(tmp_path):
    game = get_game("table_football")
    cases = [
        torch.nn.Sequential(torch.nn.Linear(game.observation_size + 1, game.num_actions)),  # wrong input
        torch.nn.Sequential(torch.nn.Linear(game.observation_size, game.num_actions + 2)),  # wrong output
    ]
    for net in cases:
        with pytest.raises(GameBotFileError, match="expected|logits"):
            export_policy(net, tmp_path / "x.npz", game)
    for net in (torch.nn.Sequential(torch.nn.Linear(game.observation_size, 7), torch.nn.Tanh()),  # tanh logits
                torch.nn.Sequential(torch.nn.Linear(game.observation_size, 7), torch.nn.Sigmoid(),
                                    torch.nn.Linear(7, 7)),
                torch.nn.Conv1d(1, 1, 1), {"layers": [], "activation": "gelu"}):
        with pytest.raises(ValueError):
            export_policy(net, tmp_path / "x.npz", game)
    nan = {"layers": [(np.full((game.observation_size, game.num_actions), np.nan), np.zeros(game.num_actions))]}
    with pytest.raises(GameBotFileError, match="non-finite"):
        export_policy(nan, tmp_path / "x.npz", game)
    assert not (tmp_path / "x.npz").exists()


def _good_arrays(game):
    rng = np.random.default_rng(0)
    return {"format": np.array(ge.FORMAT), "game": np.array(game.name), "layout": np.array(ge.layout_digest(game)),
            "features_size": np.array(game.observation_size), "num_actions": np.array(game.num_actions),
            "activation": np.array("tanh"), "layers": np.array(2),
            "w0": rng.normal(size=(game.observation_size, 8)).astype(np.float32), "b0": np.zeros(8, np.float32),
            "w1": rng.normal(size=(8, game.num_actions)).astype(np.float32),
            "b1": np.zeros(game.num_actions, np.float32)}


def _write(path, arrays, **kwargs):
    np.savez(path, **arrays, **kwargs)
    return path


def test_corrupted_and_foreign_files_are_refused(tmp_path):
    game = get_game("table_football")
    good = _write(tmp_path / "good.npz", _good_arrays(game))
    GameBot.load(good, game=game)
    data = good.read_bytes()

    def changed(**changes):
        arrays = {**_good_arrays(game), **changes}
        return _write(tmp_path / "c.npz", {k: v for k, v in arrays.items() if v is not None})

    cases = {
        "truncated": (lambda: (tmp_path / "t.npz").write_bytes(data[:len(data) // 2]) and tmp_path / "t.npz",
                      "not a readable"),
        "random bytes": (lambda: (tmp_path / "r.npz").write_bytes(b"PK" + bytes(range(256)) * 4) and tmp_path / "r.npz",
                         "not a readable"),
        "text file": (lambda: (tmp_path / "x.npz").write_text("hello") and tmp_path / "x.npz", "not a zip"),
        "empty": (lambda: (tmp_path / "e.npz").write_bytes(b"") or tmp_path / "e.npz", "empty"),
        "missing": (lambda: tmp_path / "nope.npz", "no bot file"),
        "directory": (lambda: tmp_path, "directory"),
        "bare npy": (lambda: (np.save(tmp_path / "a.npy", np.zeros(3)), tmp_path / "a.npy")[1], "bare .npy"),
        "other game": (lambda: changed(game=np.array("sports_dice")), "not of table_football"),
        "unknown game": (lambda: changed(game=np.array("chess")), "not of table_football"),
        "other layout": (lambda: changed(layout=np.array("0" * 32)), "layout"),
        "wrong format": (lambda: changed(format=np.array("gridiron-bot-v1")), "format"),
        "wrong sizes": (lambda: changed(features_size=np.array(game.observation_size + 1)), "expects"),
        "nan weight": (lambda: changed(b0=np.full(8, np.nan, np.float32)), "non-finite"),
        "object array": (lambda: changed(w0=np.array([{"a": 1}], dtype=object)), "object"),
        "int weights": (lambda: changed(w0=np.ones((game.observation_size, 8), np.int32)), "float"),
        "missing layer": (lambda: changed(w1=None), "lacks the array 'w1'"),
        "extra layer": (lambda: changed(w2=np.zeros((2, 2), np.float32)), "beyond"),
        "layer shapes": (lambda: changed(w1=np.zeros((9, game.num_actions), np.float32)), "shapes"),
        "foreign member": (lambda: changed(evil=np.zeros(2)), "not an array"),
        "no format": (lambda: changed(format=None), "lacks the array 'format'"),
        "too many layers": (lambda: changed(layers=np.array(99)), "from 1 to"),
        "long text": (lambda: changed(game=np.array("x" * 500)), "characters"),
    }
    for what, (make, message) in cases.items():
        path = make()
        with pytest.raises(GameBotFileError, match=message) as err:
            GameBot.load(path, game=game)
        assert isinstance(err.value, ValueError)
        if what not in ("missing", "directory"):
            assert path.name in str(err.value), what
    # a Gridiron bot file is not a game bot
    shipped = Path(__file__).resolve().parents[1] / "gridiron_env" / "data" / "bot.npz"
    if shipped.is_file():
        with pytest.raises(GameBotFileError, match="format"):
            GameBot.load(shipped, game=game)
    # a zip member that claims a huge size is refused before it is decompressed
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("format.npy", b"x")
    raw = bytearray(buf.getvalue())
    central = raw.rfind(b"PK\x01\x02")
    raw[central + 24:central + 28] = (1 << 31).to_bytes(4, "little")
    (tmp_path / "bomb.npz").write_bytes(bytes(raw))
    with pytest.raises(GameBotFileError, match="claims"):
        GameBot.load(tmp_path / "bomb.npz", game=game)


def test_corrupted_and_foreign_onnx_files_are_refused(tmp_path):
    pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxscript")
    game = get_game("table_football")
    policy = torch.nn.Sequential(torch.nn.Linear(game.observation_size, game.num_actions))
    path = tmp_path / "bot.onnx"
    export_policy(policy, tmp_path / "bot.npz", game, onnx_path=path)
    data = path.read_bytes()
    (tmp_path / "half.onnx").write_bytes(data[: len(data) // 2])
    model = onnx.load(str(path))
    onnx.helper.set_model_props(model, {"format": ge.FORMAT, "game": "sports_dice", "layout": ge.layout_digest(game)})
    onnx.save(model, str(tmp_path / "other.onnx"))
    onnx.helper.set_model_props(model, {})
    onnx.save(model, str(tmp_path / "bare.onnx"))
    for bad, message in (("half.onnx", "not a loadable"), ("other.onnx", "not of table_football"),
                         ("bare.onnx", "format"), ("bot.npz", "not a loadable"), ("none.onnx", "no bot file")):
        with pytest.raises(GameBotFileError, match=message) as err:
            GameOnnxBot(tmp_path / bad, game=game)
        assert bad in str(err.value)
    if "sports_dice" in game_names():  # the right metadata cannot hide the wrong sizes
        with pytest.raises(GameBotFileError):
            GameOnnxBot(path, game="sports_dice")


def test_heavy_imports_stay_lazy():
    code = ("import sys, train.game_export, train.game_tournament, agents.game_play, gridiron_env.adapters.agents, "
            "gridiron_env.adapters.selfplay; "
            "print(sorted(m for m in ('torch', 'onnx', 'onnxruntime') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(Path(__file__).resolve().parents[1]))
    assert out.stdout.strip() == "[]"


def _loads_or_refuses(path, game, obs, mask):
    """1 if the file loads (and then plays only legal actions), 0 if it is refused naming the file."""
    try:
        bot = GameBot.load(path, game=game)
    except GameBotFileError as err:
        assert path.name in str(err)
        return 0
    assert mask[np.arange(obs.shape[0]), bot.act(obs, mask)].all()
    return 1


def test_flipped_bits_and_cut_files_are_refused_or_harmless(tmp_path):
    game = get_game("table_football")
    good = _write(tmp_path / "good.npz", _good_arrays(game))
    obs, mask = _probe(game, 50)
    data = good.read_bytes()
    damaged_path = tmp_path / "damaged.npz"
    loaded = 0
    for position in np.linspace(0, len(data) - 1, 120).astype(int):
        damaged = bytearray(data)
        damaged[position] ^= 0x10
        damaged_path.write_bytes(bytes(damaged))
        loaded += _loads_or_refuses(damaged_path, game, obs, mask)
    assert loaded < 30  # CRCs, headers and values guard most bytes
    for fraction in (0.01, 0.3, 0.7, 0.99):
        damaged_path.write_bytes(data[:max(1, int(len(data) * fraction))])
        assert _loads_or_refuses(damaged_path, game, obs, mask) == 0


class _Unpickled:
    """An object whose unpickling would leave a mark on the disk."""

    def __init__(self, mark):
        self.mark = mark

    def __reduce__(self):
        return (Path.touch, (Path(self.mark),))


@pytest.mark.parametrize("key", ["w0", "b1", "game", "layers", "format"])
def test_object_arrays_are_refused_without_unpickling(tmp_path, key):
    game = get_game("table_football")
    mark = tmp_path / "unpickled"
    arrays = _good_arrays(game)
    trap = np.empty(arrays[key].shape, dtype=object)
    trap.fill(_Unpickled(mark))
    arrays[key] = trap
    path = _write(tmp_path / f"trap_{key}.npz", arrays)
    with pytest.raises(GameBotFileError, match="object|format"):
        GameBot.load(path, game=game)
    assert not mark.exists()
    with np.load(path, allow_pickle=True) as data:  # the trap is real: unpickling springs it
        data[key]
    assert mark.exists()
