"""Export of an offence/defence policy pair: torch, onnxruntime and the numpy bot agree."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import gridiron_env as g  # noqa: E402
from agents.bot import Bot, BotFileError  # noqa: E402
from gridiron_env.core.observe import FEATURE_LAYOUT, observe  # noqa: E402
from train.export import OnnxBot, export_npz, export_onnx  # noqa: E402


def make_policy(seed):
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from gridiron_env.envs.common import action_space, observation_space

    torch.manual_seed(seed)
    policy = MaskableActorCriticPolicy(observation_space("features"), action_space(), lambda _: 3e-4,
                                       net_arch=dict(pi=[64, 64], vf=[64, 64]))
    # an untrained net's logits are nearly flat: scale the head so argmax ties cannot hide a mismatch
    with torch.no_grad():
        policy.action_net.weight.mul_(50)
    assert isinstance(policy.observation_space, spaces.Box)
    return policy.eval()


def real_states(n=1000, seed=0):
    """n observations and masks from real random-play positions (both teams to act, all phases)."""
    s = g.init(100, seed=seed)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    while sum(len(o) for o in obs) < n:
        s = g.step(s, (rng.random(s.legal.shape) * s.legal).argmax(1))
        live = np.flatnonzero(~(s.terminated | s.truncated))
        take = live[rng.random(live.size) < 0.1]
        obs.append(observe(s.take(take)))
        masks.append(s.legal[take])
    return np.concatenate(obs)[:n], np.concatenate(masks)[:n]


@pytest.fixture(scope="module")
def pair():
    torch.set_num_threads(1)
    return make_policy(1), make_policy(2)


def torch_reference(pair, obs, mask):
    offence, defence = pair
    x = torch.as_tensor(obs)
    with torch.no_grad():
        lo = offence.action_net(offence.mlp_extractor.forward_actor(offence.extract_features(x)))
        ld = defence.action_net(defence.mlp_extractor.forward_actor(defence.extract_features(x)))
    on_off = obs[:, FEATURE_LAYOUT["on_offence"][0].start] > 0.5
    logits = np.where(on_off[:, None], lo.numpy(), ld.numpy())
    return np.where(mask, logits, -1e8).argmax(1), logits


def test_torch_onnx_and_numpy_agree_on_1000_real_states(pair, tmp_path):
    obs, mask = real_states()
    on_off = obs[:, FEATURE_LAYOUT["on_offence"][0].start] > 0.5
    assert 100 < on_off.sum() < 900  # both nets are exercised
    ref_action, ref_logits = torch_reference(pair, obs, mask)

    bot = export_npz(*pair, tmp_path / "bot.npz")
    loaded = Bot.load(tmp_path / "bot.npz")
    np.testing.assert_allclose(loaded.logits(obs), ref_logits, atol=1e-5)
    np.testing.assert_array_equal(loaded.act(obs, mask), ref_action)
    np.testing.assert_array_equal(bot.act(obs, mask), ref_action)

    export_onnx(*pair, tmp_path / "bot.onnx")
    action, logits = OnnxBot(tmp_path / "bot.onnx").run(obs, mask.astype(np.float32))
    np.testing.assert_allclose(logits, ref_logits, atol=1e-5)
    np.testing.assert_array_equal(action, ref_action)
    assert mask[np.arange(len(action)), action].all()  # never an illegal action


def test_sampling_at_a_temperature_stays_legal(pair, tmp_path):
    obs, mask = real_states(200, seed=3)
    bot = export_npz(*pair, tmp_path / "bot.npz")
    actions = bot.act(obs, mask, temperature=2.0, rng=np.random.default_rng(0))
    assert mask[np.arange(len(actions)), actions].all()


def test_bad_bot_files_give_clear_errors(pair, tmp_path):
    with pytest.raises(BotFileError, match="no bot file"):
        Bot.load(tmp_path / "missing.npz")
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"not a zip file at all")
    with pytest.raises(BotFileError, match="not a readable"):
        Bot.load(corrupt)
    export_npz(*pair, tmp_path / "bot.npz")
    with pytest.raises(BotFileError, match="features"):
        Bot.load(tmp_path / "bot.npz", features_size=10)
    data = dict(np.load(tmp_path / "bot.npz"))
    data["offence_w1"] = data["offence_w1"][:5]
    np.savez(tmp_path / "shapes.npz", **data)
    with pytest.raises(BotFileError, match="layer 1"):
        Bot.load(tmp_path / "shapes.npz")
    bad_onnx = tmp_path / "bad.onnx"
    bad_onnx.write_bytes(b"garbage")
    with pytest.raises(ValueError, match="not a loadable ONNX"):
        OnnxBot(bad_onnx)


def test_the_shipped_bot_loads_is_small_and_beats_random():
    """The package's bot file: numpy-only load, a few MB at most, and it wins real games against random."""
    from pathlib import Path

    import gridiron_env as g
    from agents.base import play_games
    from agents.bot import LEVELS, BotAgent
    from agents.random_agent import RandomAgent

    path = Path(g.__file__).parent / "data" / "bot.npz"
    assert path.stat().st_size < 5_000_000
    bot = Bot.load(path)
    result = play_games(BotAgent(bot, temperature=LEVELS["hard"]), RandomAgent(), 8, seed=3,
                        config=g.GameConfig(target_score=7))
    assert (result.winner == result.a_team).sum() >= 7
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert LEVELS["easy"] > LEVELS["medium"] > LEVELS["hard"] >= 0  # more sampling = easier
