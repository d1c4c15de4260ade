"""Recording an episode to a video with Gymnasium's RecordVideo (needs moviepy: the ``video`` and ``test``
extras; imageio-ffmpeg ships the ffmpeg binary)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import gridiron_env  # noqa: F401  (registers the envs)
from gridiron_env.render import FRAME_SHAPE

pytest.importorskip("moviepy")
imageio = pytest.importorskip("imageio")

from gymnasium.wrappers import RecordVideo  # noqa: E402


def _play(env, seed: int) -> int:
    """One episode of random legal actions (from info["action_mask"]); returns the learner steps."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            return steps


@pytest.mark.parametrize("offence_up", [False, True])
def test_record_video_of_an_episode(tmp_path, offence_up):
    env = gymnasium.make("gridiron_env/Gridiron-v0", render_mode="rgb_array", offence_up=offence_up,
                         config={"target_score": 3, "specials": False}, max_episode_steps=60)
    env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: True, disable_logger=True)
    steps = _play(env, seed=7)
    first = env.recorded_frames[0].copy()
    last = env.recorded_frames[-1].copy()
    assert len(env.recorded_frames) == steps + 1  # the reset frame and one per step
    env.close()

    videos = sorted((tmp_path / "videos").glob("*.mp4"))
    assert [v.name for v in videos] == ["rl-video-episode-0.mp4"]
    assert videos[0].stat().st_size > 1000

    reader = imageio.get_reader(str(videos[0]), "ffmpeg")
    try:
        frames = [np.asarray(f) for f in reader]
        fps = reader.get_meta_data()["fps"]
    finally:
        reader.close()
    assert fps == pytest.approx(env.metadata["render_fps"])
    assert frames[0].shape == FRAME_SHAPE
    assert len(frames) == steps + 1
    # The decoded pictures are the rendered ones (up to lossy compression), not blank or shuffled frames.
    for decoded, rendered in ((frames[0], first), (frames[-1], last)):
        assert np.abs(decoded.astype(np.int16) - rendered.astype(np.int16)).mean() < 6
    assert np.abs(frames[0].astype(np.int16) - last.astype(np.int16)).mean() > \
        np.abs(frames[0].astype(np.int16) - first.astype(np.int16)).mean()


def test_record_two_episodes_into_two_videos(tmp_path):
    env = gymnasium.make("gridiron_env/Gridiron-v0", render_mode="rgb_array",
                         config={"target_score": 3, "specials": False}, max_episode_steps=15)
    env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: True, disable_logger=True)
    _play(env, seed=1)
    _play(env, seed=2)
    env.close()
    videos = sorted((tmp_path / "videos").glob("*.mp4"))
    assert [v.name for v in videos] == ["rl-video-episode-0.mp4", "rl-video-episode-1.mp4"]
    assert all(v.stat().st_size > 0 for v in videos)
