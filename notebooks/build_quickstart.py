"""Build notebooks/quickstart.ipynb with nbformat (no outputs stored).

    python build_quickstart.py [path/to/notebooks/quickstart.ipynb]
"""

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

CELLS = []


def md(text: str) -> None:
    CELLS.append(new_markdown_cell(text.strip("\n")))


def code(text: str) -> None:
    CELLS.append(new_code_cell(text.strip("\n")))


md("""
# Gridiron quickstart

A tour of `gridiron_env` in four steps:

1. make the Gymnasium environment and look at what an agent sees: the observation and the action mask;
2. play a whole game with random legal actions and render it, as text and as a picture;
3. train briefly: MaskablePPO on a natively batched drive environment, then the project's self-play
   pipeline (`train.selfplay.train`) with a tiny config, which exports a numpy bot;
4. run a small tournament between the random agent, the heuristic and that bot, and plot it.

Everything runs on a CPU. The sizes below are chosen in one place: set the environment variable
`GRIDIRON_NOTEBOOK_QUICK=1` for tiny sizes (the test suite does, to run the notebook in well under two
minutes); otherwise they are moderate (about five to ten minutes on two cores).
""")

code('''
import os
import sys
import tempfile
import time
from pathlib import Path

QUICK = os.environ.get("GRIDIRON_NOTEBOOK_QUICK") == "1"

# The repository root (this notebook lives in notebooks/), so `import agents` / `import train` work even
# without `pip install -e .`.
ROOT = Path.cwd()
if not (ROOT / "pyproject.toml").exists() and (ROOT.parent / "pyproject.toml").exists():
    ROOT = ROOT.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Where training and tournament files go (GRIDIRON_NOTEBOOK_OUT overrides; the test points it at a temp dir).
OUT = Path(os.environ.get("GRIDIRON_NOTEBOOK_OUT") or ROOT / "runs" / "notebook")

GAME_TARGET = 7  # points that win the games of steps 2 and 3 (random play is slow to score: keep it small)
if QUICK:  # tiny: for the test suite
    PPO_ENVS, PPO_STEPS = 8, 512    # step 3a: games per batch, learner steps
    TRAIN = dict(minutes=0.02, imitation_games=4, imitation_epochs=2, num_envs=8, n_steps=32,
                 batch_size=128, round_steps=256, progress_bar=False, opponents="heuristic", league_games=2,
                 env_groups=2, level_games=0, distil_games=4, distil_rounds=1, distil_fit_steps=8,
                 fronts_games=4)
    TOURNAMENT_GAMES, TOURNAMENT_TARGET = 2, 7   # games per pair (even), target score
else:      # moderate: for a person
    PPO_ENVS, PPO_STEPS = 64, 32_768
    TRAIN = dict(minutes=3.0, imitation_games=128, imitation_epochs=4, num_envs=64, n_steps=128,
                 batch_size=1024, round_steps=16_384, progress_bar=True, league_games=4, level_games=4,
                 distil_games=64, distil_rounds=1, distil_fit_steps=200, fronts_games=64)
    TOURNAMENT_GAMES, TOURNAMENT_TARGET = 40, 21

print(f"QUICK={QUICK}  root={ROOT}  out={OUT}")
''')

code('''
import numpy as np
import gymnasium
from IPython.display import Image, Markdown, display

import gridiron_env as g
from gridiron_env.render import render_ansi, save_png


def show_frame(frame):
    """Show an H x W x 3 uint8 picture: with matplotlib when it is installed, else as a PNG."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    if plt is not None:
        fig, ax = plt.subplots(figsize=(frame.shape[1] / 100, frame.shape[0] / 100), dpi=100)
        ax.imshow(frame)
        ax.axis("off")
        plt.show()
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frame.png"
        save_png(frame, path)  # Pillow when installed, else a small zlib PNG writer
        display(Image(data=path.read_bytes(), format="png"))
''')

md("""
## 1. The environment

`gridiron_env/Gridiron-v0` is a whole game: the learner plays one team (drawn per episode) against an
opponent policy, by default uniformly random legal actions. Importing `gridiron_env` registers the ids.
`config` takes a `GameConfig` or a dict of its fields; here the target score is set in the sizes cell.

The observation is the documented feature vector (float32, always from the learner's side: its team
attacks "up"). The action space is `Discrete(291)`: every action of the game has a stable id and name
(`g.action_name`, `g.action_id`). Which of them are legal now is in `info["action_mask"]` (and
`env.action_masks()`, which sb3-contrib's MaskablePPO uses). A game opens with each team picking a special
player, so the first legal actions are the specials.
""")

code('''
env = gymnasium.make("gridiron_env/Gridiron-v0", render_mode="rgb_array",
                     config={"target_score": GAME_TARGET})
obs, info = env.reset(seed=0)
mask = info["action_mask"]

print("observation space:", env.observation_space)
print("observation:", obs.shape, obs.dtype, f"values in [{obs.min():.2f}, {obs.max():.2f}]")
print("action space:", env.action_space, f"({g.NUM_ACTIONS} actions)")
print("action mask:", mask.shape, mask.dtype, f"{int(mask.sum())} legal now")
print("the learner plays", info["learner_team"])
print("legal actions:", [g.action_name(int(a)) for a in np.flatnonzero(mask)[:6]])
print("e.g.", g.action_name(57), "=", g.action_id(g.action_name(57)))
''')

md("""
## 2. A full game with random legal actions

The learner picks uniformly among its legal actions; the built-in opponent does the same. Random play
scores rarely, so the target score is small (`GAME_TARGET`). The env steps
the opponent's turns itself, so each `env.step` is one learner action. The reward is +1 for a win and -1
for a loss at the end (0 on the way, by default).

We keep an RGB frame (`env.render()` with `render_mode="rgb_array"`, 642 x 420) every few steps. At the
end the whole position is printed as the text board (`gridiron_env.render.render_ansi`; `g.to_diagram`
gives the full diagram that `g.from_diagram` reads back) and a frame from the middle of the game is shown.
""")

code('''
rng = np.random.default_rng(1)
obs, info = env.reset(seed=1)
print("the learner plays", info["learner_team"])
frames, steps, ret = [], 0, 0.0
terminated = truncated = False
while not (terminated or truncated):
    action = rng.choice(np.flatnonzero(info["action_mask"]))
    obs, reward, terminated, truncated, info = env.step(action)
    steps += 1
    ret += reward
    if steps % 25 == 0:
        frames.append(env.render())

state = env.unwrapped.state  # the engine state: a batch of one game
print(f"{steps} learner actions, return {ret:+.0f}, terminated={terminated}, truncated={truncated}")
winner = int(state.winner[0])  # 0 team one, 1 team two, -1 none (truncated at GameConfig.max_steps)
print("final score (team one, team two):", state.score[0].tolist(),
      "| winner:", ("team_one", "team_two")[winner] if winner >= 0 else "none")
print(render_ansi(state, 0))
''')

code('''
frame = frames[len(frames) // 2] if frames else env.render()
print("frame:", frame.shape, frame.dtype)
show_frame(frame)
env.close()
''')

md("""
## 3. Training briefly

### 3a. MaskablePPO on a batched drive environment

`gridiron_env/GridironOffence-v0` is one drive with the learner on offence (the reward is the points of
the drive). `gymnasium.make_vec` builds it natively batched: one numpy engine steps all the games at once.
`SB3VecEnv` turns that into a stable-baselines3 `VecEnv`, and sb3-contrib's `MaskablePPO` reads the legal
actions from it. Here the opponent is the default random defence, and the run is tiny: it shows the API,
not a strong policy.
""")

code('''
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from gridiron_env.envs.sb3 import SB3VecEnv

torch.set_num_threads(1)
venv = VecMonitor(SB3VecEnv("gridiron_env/GridironOffence-v0", num_envs=PPO_ENVS, start="random"))
venv.seed(0)
print("batched drives:", venv.num_envs, "| observation:", venv.observation_space.shape, "| actions:", venv.action_space)

t0 = time.perf_counter()
model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=min(256, 32 * PPO_ENVS), seed=0, device="cpu")
model.learn(PPO_STEPS)
drive_rewards = [e["r"] for e in model.ep_info_buffer]
print(f"{model.num_timesteps:,} learner steps in {time.perf_counter() - t0:.1f} s;",
      f"{len(drive_rewards)} recent drives, mean points {np.mean(drive_rewards):+.2f}" if drive_rewards
      else "no drive finished yet")
venv.close()
''')

md("""
### 3b. The self-play pipeline, tiny

`train.selfplay.train(TrainConfig(...))` is what `python -m train.selfplay` runs: it fits an offence and a
defence policy to a scripted team's play (imitation warm start), then plays league rounds. Each side trains
with MaskablePPO against league members drawn by prioritised fictitious self-play: frozen snapshots of the
learner, the scripted panel and the heuristic. Last, the defence is taught the power wall's defence again
(`train.distill`: the wall's moves in the bot's own games), then its formation picks by search
(`train.fronts`: each front played out on copies of the game). It exports the pair as a numpy bot (`bot.npz`, runnable
with numpy only, its difficulty levels measured and stored in it) and as ONNX (`bot.onnx`).
`eval_games=0` skips its evaluation: step 4 runs a tournament instead. The default config trains for 25
minutes; here it runs for a few seconds (quick, against the heuristic alone) or minutes. A rerun into the
same `out` directory resumes from its checkpoints.
""")

code('''
from train.selfplay import TrainConfig, train

config = TrainConfig(out=str(OUT / "selfplay"), eval_games=0, **TRAIN)
t0 = time.perf_counter()
summary = train(config, log=print)
print(f"trained in {time.perf_counter() - t0:.0f} s: {summary['rounds']} PPO round(s); bot at {summary['bot']}",
      f"({os.path.getsize(summary['bot']) / 1e6:.2f} MB)")
''')

md("""
The exported bot is a plain numpy MLP pair (`agents.bot.Bot`): it takes the same observation the
environment gives and the action mask, and returns a legal action. Here it plays one game of
`Gridiron-v0` against the env's random opponent.
""")

code('''
from agents.bot import Bot

bot = Bot.load(summary["bot"])
env = gymnasium.make("gridiron_env/Gridiron-v0", config={"target_score": GAME_TARGET})
obs, info = env.reset(seed=2)
done = False
while not done:
    action = int(bot.act(obs[None], info["action_mask"][None])[0])
    obs, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
state = env.unwrapped.state
print(f"the bot played {info['learner_team']}; final score {state.score[0].tolist()}, reward {reward:+.0f}")
env.close()
''')

md("""
## 4. A small tournament

`train.tournament.run_tournament` plays every pair of agents in full games, in batch, with both teams and
coin tosses balanced (each deal is played from both sides). The result has win rates with 95% Wilson
intervals, points for and against, points per drive and an Elo rating anchored at 1000 on the random agent.
`result.save(dir)` writes CSV, Markdown and the plot (`results.png`: the pairwise win-rate heatmap with its
Wilson intervals and the Elo bars with 95% bootstrap intervals, drawn with matplotlib, the `plot` extra).
With the quick sizes the intervals are very wide: a couple of games say little.
""")

code('''
from agents import HeuristicAgent, RandomAgent
from agents.bot import BotAgent
from train.tournament import run_tournament

agents = {"random": RandomAgent(), "heuristic": HeuristicAgent(), "bot": BotAgent.load(summary["bot"], name="bot")}
result = run_tournament(agents, games_per_pair=TOURNAMENT_GAMES, config=g.GameConfig(target_score=TOURNAMENT_TARGET),
                        seed=0)
paths = result.save(OUT / "tournament")
print(f"{result.n_games} games in {result.seconds:.1f} s; files: {', '.join(p.name for p in paths.values())}")
display(Markdown(result.to_markdown()))
''')

code('''
if "plot" in paths:  # drawn when matplotlib (the plot extra) is installed
    display(Image(filename=str(paths["plot"])))
else:
    print("results.png needs matplotlib: pip install 'gridiron_env[plot]'")
''')

md("""
## Next

- `python -m train.selfplay` trains the real bot (25 minutes on two cores, then levels and evaluation) and prints its
  evaluation; `python -m train.tournament --agents random heuristic bot:runs/default/bot.npz --games 400`
  measures it.
- `gridiron-play` plays a game against the bot in the terminal.
- `RULES.md` documents every rule, action name and observation slice.
""")


def main(argv):
    target = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "notebooks" / "quickstart.ipynb"
    nb = new_notebook(cells=CELLS, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    })
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids: rebuilding gives the same file
    nbformat.validate(nb)
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    print(f"wrote {target} ({len(CELLS)} cells)")


if __name__ == "__main__":
    main(sys.argv)
