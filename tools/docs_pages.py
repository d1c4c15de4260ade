"""The docs site's generated pages, and the mkdocs hooks that add them (``mkdocs.yml``: ``hooks:``).

Every table that states a fact of the code is built here from the code at build time, so the site cannot
drift from it: the observation tables from the encoders' own layouts (Gridiron's
``gridiron_env.core.observe`` layouts; a protocol game's ``GameSpec.observation_layout``), the action
tables from the action names, the spaces from the envs themselves, the options from the constructors'
signatures, the config tables from the config dataclasses, the commands' options from their own
``--help``, the rulebooks and the README's measured figures included as they stand. A game registered in
``gridiron_env.adapters.registration.IDS`` gets its pages with no change here.

``pages()`` returns {page path: markdown}; ``nav()`` the site's navigation. mkdocs calls ``on_config``
and ``on_files``; ``python tools/docs_pages.py OUT_DIR`` writes the generated pages to a folder instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import inspect
import io
import os
import re
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _project_importable() -> None:
    """Put the checkout on sys.path: mkdocs loads this file by path and restores sys.path afterwards, and
    the pages import the project's modules (agents, train) as they are built."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


_project_importable()

import gymnasium  # noqa: E402

import gridiron_env  # noqa: E402  (registers every id)
from gridiron_env import protocol  # noqa: E402
from gridiron_env.adapters import registration  # noqa: E402
from gridiron_env.config import GameConfig  # noqa: E402
from gridiron_env.core import ACTION_NAMES, NUM_ACTIONS  # noqa: E402

gridiron_observe = importlib.import_module("gridiron_env.core.observe")  # (core.observe is also a function)

# The static pages in docs/ (path, nav title), in nav order around the generated ones.
STATIC_HOME = ("index.md", "Home")
STATIC_GUIDES = [("bot.md", "The bot and its levels"), ("training.md", "Training"),
                 ("tournaments.md", "Tournaments")]



# ------------------------------------------------------------------------------------------------ tables

def _cell(text) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def layout_rows(layout: dict) -> list[tuple[int, int, str, str]]:
    """(first index, last index, name, meaning) of every slice of a layout ``{name: (slice, meaning)}``,
    in index order (the order the encoder writes them)."""
    rows = [(sl.start, sl.stop - 1, name, meaning) for name, (sl, meaning) in layout.items()]
    return sorted(rows)


def layout_table(layout: dict) -> str:
    """The Markdown table of a flat observation layout: index range, size, name, meaning."""
    lines = ["| index | size | name | meaning |", "|---|---|---|---|"]
    for first, last, name, meaning in layout_rows(layout):
        index = str(first) if first == last else f"{first}-{last}"
        lines.append(f"| {index} | {last - first + 1} | `{name}` | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


def plane_table(planes: dict) -> str:
    """The Markdown table of Gridiron's board planes ``{name: (index, meaning)}``."""
    lines = ["| plane | name | 1 on |", "|---|---|---|"]
    for name, (i, meaning) in sorted(planes.items(), key=lambda kv: kv[1][0]):
        lines.append(f"| {i} | `{name}` | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


def parse_table(markdown: str, header: str) -> list[list[str]]:
    """The body rows (cells, stripped, backticks removed) of the first table whose header row starts with
    ``header`` in ``markdown``."""
    lines = [line[4:] if line.startswith("    |") else line for line in markdown.splitlines()]  # a block
    for k, line in enumerate(lines):
        if line.startswith(header):
            rows = []
            for body in lines[k + 2:]:
                if not body.startswith("|"):
                    break
                cells = re.split(r"(?<!\\)\|", body.strip())[1:-1]
                rows.append([c.strip().replace("\\|", "|").strip("`") for c in cells])
            return rows
    raise ValueError(f"no table with header {header!r}")


def action_groups(names) -> list[tuple[str, int, int]]:
    """Runs of consecutive ids whose names share a first word: (word, first id, last id)."""
    groups: list[list] = []
    for i, name in enumerate(names):
        word = name.split()[0]
        if groups and groups[-1][0] == word:
            groups[-1][2] = i
        else:
            groups.append([word, i, i])
    return [tuple(g) for g in groups]


def action_table(names) -> str:
    """Every action id and its name (a table; grouped by kind first when the space is large)."""
    full = ["| id | name |", "|---|---|"] + [f"| {i} | `{_cell(n)}` |" for i, n in enumerate(names)]
    if len(names) <= 32:
        return "\n".join(full) + "\n"
    lines = ["| kind | ids | count | first | last |", "|---|---|---|---|---|"]
    for word, first, last in action_groups(names):
        if first == last:  # a lone action: its own name is its kind
            lines.append(f"| `{names[first]}` | {first} | 1 | `{names[first]}` | |")
        else:
            lines.append(f"| `{word} ...` | {first}-{last} | {last - first + 1} | `{names[first]}` | `{names[last]}` |")
    body = "\n".join("    " + line for line in full)
    return ("\n".join(lines) + f'\n\n??? abstract "All {len(names)} actions, by id"\n\n{body}\n')


def config_docs(config_class) -> dict[str, str]:
    """``field: meaning`` lines of a config dataclass's docstring (continuation lines joined)."""
    fields = {f.name for f in dataclasses.fields(config_class)}
    out: dict[str, str] = {}
    current = None
    for line in inspect.getdoc(config_class).splitlines():
        m = re.match(r"^(\w+): (.*)$", line)
        if m and m.group(1) in fields:
            current = m.group(1)
            out[current] = m.group(2).strip()
        elif current and line.startswith(" ") and line.strip():
            out[current] += " " + line.strip()
        else:
            current = None
    return out


def config_table(config_class, fixed: dict | None = None) -> str:
    """Every field of a config dataclass: name, default, meaning (a field the id fixes says so)."""
    docs = config_docs(config_class)
    default = config_class()
    lines = ["| field | default | meaning |", "|---|---|---|"]
    for f in dataclasses.fields(config_class):
        value = (fixed or {}).get(f.name, getattr(default, f.name))
        note = " (fixed by this id)" if fixed and f.name in fixed else ""
        lines.append(f"| `{f.name}` | `{value!r}`{note} | {_cell(docs.get(f.name, ''))} |")
    return "\n".join(lines) + "\n"


def options_table(cls_or_fn, meanings: dict, fixed: dict | None = None) -> str:
    """Every keyword of a constructor's signature: name, default, meaning."""
    lines = ["| option | default | meaning |", "|---|---|---|"]
    for name, p in inspect.signature(cls_or_fn).parameters.items():
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) or name == "self":
            continue
        if fixed and name in fixed:
            default, meaning = f"`{fixed[name]!r}` (fixed by this id)", meanings.get(name, "")
        else:
            default = "" if p.default is inspect.Parameter.empty else f"`{p.default!r}`"
            meaning = meanings.get(name, "see the class docstring below")
        lines.append(f"| `{name}` | {default} | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


def summary_table(rows) -> str:
    lines = ["| | |", "|---|---|"] + [f"| {k} | {_cell(v)} |" for k, v in rows]
    return "\n".join(lines) + "\n"


def docstring_block(obj, title: str = "Docstring") -> str:
    doc = inspect.getdoc(obj) or ""
    body = "\n".join("    " + line if line else "" for line in ("```text\n" + doc + "\n```").splitlines())
    return f'??? note "{title}"\n\n{body}\n'


def _space(space) -> str:
    """A space as code; a Box whose bounds differ by index (the flat observation) by its range and shape,
    its bounds being given by slice in the page's tables (its repr would print every bound)."""
    from gymnasium import spaces

    if isinstance(space, spaces.Box) and not (space.low.min() == space.low.max()
                                              and space.high.min() == space.high.max()):
        return (f"`Box({space.low.min():g}..{space.high.max():g}, {space.shape}, {space.dtype})`, "
                "bounds by slice (below)")
    return f"`{space!r}`"


# ------------------------------------------------------------------------------------------ Gridiron envs

_GRIDIRON_OPTIONS = {
    "learner_team": '"one", "two" or "random" (drawn per episode from the seed): the learner\'s team',
    "opponent": "the policy of the other team, acting inside the env: None (uniformly random legal actions "
                "from a per-episode stream), a callable (observations, int8 masks) -> actions over a batch, "
                "or an agent (`gridiron_env.envs.common.AgentOpponent`)",
    "observation": '"features" (a float32 vector) or "planes" (uint8 board planes and float32 scalars)',
    "illegal_action": '"lose": an illegal action ends the game as a loss for its team, '
                      '`info["illegal_action"]` says why; "raise": IllegalActionError, nothing changes',
    "score_reward_scale": "adds this times the change of (own score - other score) / target_score to every "
                          "step's reward (0: win/loss only)",
    "config": "a `GameConfig` or a dict of its fields (table below)",
    "max_episode_steps": "learner steps, then the episode is truncated (None: only the game's own cap)",
    "render_mode": 'None, "ansi" (the text board) or "rgb_array" (uint8 HxWx3)',
    "offence_up": "rendering only: draw the offence attacking up the picture",
    "start": '"kickoff" (first-and-ten at the offence\'s kickoff spot), "random" (LOS row and lane drawn '
             "from the seed) or an int 4..27, the LOS row counted from the goal line the offence attacks",
    "field_position_weight": "w >= 0: adds w times the value of the field position the drive leaves",
    "num_envs": "games in the batch (vector env only)",
    "autoreset_mode": "NEXT_STEP (default), SAME_STEP or DISABLED (vector env only)",
    "scenario": "None, or a name of `gridiron_env.SCENARIOS` ([Scenarios](../scenarios.md)): every episode, "
                "autoresets included, starts from that position",
}

_AEC_OPTIONS = {
    "render_mode": 'None, "human" (prints the text board after each step), "ansi" or "rgb_array"',
    "config": "a `GameConfig`; GameConfig fields may also be passed as keywords (`target_score=7`)",
    "observation": '"features" (dict of float32 features and int8 mask), "planes" (dict of planes, scalars '
                   'and mask) or "flat" (one float32 Box: the features, then the mask as 0/1)',
    "illegal_action": '"lose" (the offender loses, both infos hold "illegal_action") or "raise"',
    "score_reward_scale": "adds this times the change of (own score - other score) to every step's rewards",
    "offence_up": "rendering only: draw the offence attacking up the picture",
    "scenario": "None, or a name of `gridiron_env.SCENARIOS` ([Scenarios](../scenarios.md)): every game "
                "starts from that position (`reset(options={\"scenario\": name})`: that game only)",
}

_GAME_REWARD = """\
+1 when the learner's team wins, -1 when it loses (an illegal action of the learner included), 0 on
truncation; plus `score_reward_scale * (change of own score - change of other score) / target_score` on
every step (0 by default)."""

_DRIVE_REWARD = """\
The points the learner's team scored in the drive minus the points the other team scored (a defensive
touchdown or a safety counts against the offence), plus `field_position_weight` w times the value of the
position the drive leaves: v = (rows the next offence must go to score, 1..24) / 24, +w v for the team that
did not get the ball next and -w v for the team that did (0 if the game ended or the episode was
truncated). The offence's and the defence's rewards for a drive sum to zero. An illegal action ends the
episode with -(7 + w), the worst a drive can give, so breaking a rule never pays better than playing on."""

_DRIVE_END = """\
**Terminated** when the offence loses the ball: a touchdown, a field goal attempt, a punt, a turnover, a
safety or a turnover on downs (a first down does not end it), or when the game ends (an illegal action
included). **Truncated** after `GameConfig.max_steps` agent actions in the game or `max_episode_steps`
learner steps."""

_DRIVE_START = """\
One drive: `start="kickoff"` (default) gives the offence first-and-ten at its kickoff spot, the 6th row
out from its own goal line; `"random"` draws the LOS row (uniform over the field of play) and lane
(uniform over the hash band) from the seed; an int k in 4..27 puts the LOS on rulebook row k counted from
the goal line the offence attacks. `config` defaults to `GameConfig(specials=False)`; with specials on,
each team gets a random special at reset. `reset(options={{"state": state}})` starts from a given position
instead, the learner taking the {side}'s seat; `reset(options={{"scenario": name}})` (or `scenario=`, every
episode) from a named [scenario](../scenarios.md), the learner's team on the {side}."""


@dataclass(frozen=True)
class GridironEnvDoc:
    env_id: str
    slug: str
    title: str
    summary: str
    start: str
    end: str
    reward: str


GRIDIRON_ENVS = (
    GridironEnvDoc(
        "gridiron_env/Gridiron-v0", "gridiron", "Gridiron-v0",
        "The learner plays one team for a whole game of Gridiron against an opponent policy that acts inside "
        "the env. It plays every phase of its team's turns: the specials pick, formations, kick decisions, "
        "the play itself (moves, pushes, gap runs, throws, follows, fumble scrambles). Turns do not "
        "alternate action by action: a step is one learner action, after which the opponent plays all of "
        "its own actions until the learner is to act again.",
        "A new game dealt from the seed (`reset(seed=s)` plays the engine's game seeded s; a later "
        "`reset()` plays the next episode of the same stream). The learner's team is `learner_team`. "
        "`reset(options={\"state\": state})` starts from a given engine position (a State of one game); "
        "`reset(options={\"scenario\": name})` (or `scenario=`, every episode) from a named "
        "[scenario](../scenarios.md), which then plays on to the end of the game.",
        "**Terminated** when the game ends with a winner: at a change of possession once a team has "
        "`target_score` points (the other team may be owed a final drive; a tie goes to overtime, won by "
        "the first team to 4 overtime points; the rulebook's \"The end of the game\" has every case), or "
        "when a team plays an illegal action. **Truncated** "
        "with no winner after `GameConfig.max_steps` agent actions (both teams' actions count) or "
        "`max_episode_steps` learner steps.",
        _GAME_REWARD),
    GridironEnvDoc(
        "gridiron_env/GridironOffence-v0", "gridiron_offence", "GridironOffence-v0",
        "The learner plays the offence of one drive; the opponent policy plays the defence inside the env. "
        "The drive envs train the two sides of a policy pair separately (the main job's league does).",
        _DRIVE_START.format(side="offence"), _DRIVE_END, _DRIVE_REWARD),
    GridironEnvDoc(
        "gridiron_env/GridironDefence-v0", "gridiron_defence", "GridironDefence-v0",
        "The learner plays the defence of one drive (rewards from the defence's side); the opponent policy "
        "plays the offence inside the env.",
        _DRIVE_START.format(side="defence"), _DRIVE_END, _DRIVE_REWARD),
)

_GYM_EXAMPLE = """\
```python
import gymnasium
import numpy as np
import gridiron_env  # registers the ids

env = gymnasium.make("{env_id}"{kwargs})
obs, info = env.reset(seed=0)
rng = np.random.default_rng(0)
for _ in range(200):
    action = rng.choice(np.flatnonzero(info["action_mask"]))  # a legal action
    obs, reward, terminated, truncated, info = env.step(action)
    if terminated or truncated:
        obs, info = env.reset()
env.close()

venv = gymnasium.make_vec("{env_id}", num_envs=64{kwargs})  # natively batched, no Sync/Async wrapper
obs, infos = venv.reset(seed=0)
```
"""


def _entry(spec, attr) -> str:
    value = getattr(spec, attr)
    return value if isinstance(value, str) else f"{value.__module__}:{value.__qualname__}"


def _resolve(entry: str):
    module, _, name = entry.partition(":")
    return getattr(importlib.import_module(module), name)


def _gridiron_observation_section() -> str:
    o = gridiron_observe
    return f"""\
## Observation space

From the learner's side: its frame (it attacks "up", toward row 0), its own players first, so one policy
serves both teams. No observation shows a hidden ball (the blind fumble scramble) or the other team's
special while the picks are secret.

`observation="features"` (default): float32 [{o.FEATURES_SIZE}], every value in [{o.OBS_LOW:g}, {o.OBS_HIGH:g}]
(scores past twice the target are clipped). Each of the {o.N_PLAYER_SLOTS} player slots (the viewer's
11 players, then the other team's 11, each in tag order) holds {len(o.PLAYER_FEATURES)} values: value f of
slot k is at index {len(o.PLAYER_FEATURES)} k + f, f being
{", ".join(f"{i} `{f}`" for i, f in enumerate(o.PLAYER_FEATURES))}.

{layout_table(o.FEATURE_LAYOUT)}
`observation="planes"`: a dict of `planes`, uint8 [{o.N_PLANES}, 30, 18] in the viewer's frame (row 0 = the
end it attacks), and `scalars`, float32 [{o.SCALARS_SIZE}] (= `features` from index {o.PLAYERS_SIZE} on):

{plane_table(o.PLANE_LAYOUT)}
The `scalars` layout:

{layout_table(o.SCALAR_LAYOUT)}"""


_GRIDIRON_ACTIONS = f"""\
## Action space

`Discrete({NUM_ACTIONS})`, one space for both teams; every id has a stable name
(`gridiron_env.action_name(id)`, `gridiron_env.action_id(name)`). `info["action_mask"]` (int8) and
`env.action_masks()` (bool, for sb3-contrib's MaskablePPO) give the legal ids; a mask is never all zero
(once the episode is over it marks only id 0, `end turn`). An illegal id, an id outside the space or a
bool (never an action id) ends the game as a loss, or raises with `illegal_action="raise"`. The rulebook's
"Actions" section gives the grammar of the names.

{action_table(ACTION_NAMES)}"""

_GRIDIRON_VERSIONS = f"""\
## Version history

- **v0**: the current version. Its observation is layout 2: layout 1 (212 features) ended with `steps`;
  layout 2 appends `rules` and `kick_chance` ({gridiron_observe.FEATURES_SIZE} features), so layout 1 is a
  prefix of it and a bot trained on layout 1 reads its first 212 features
  (`gridiron_env.core.observe.FEATURE_LAYOUT_SIZES`).
"""


def gridiron_env_page(doc: GridironEnvDoc) -> str:
    spec = gymnasium.spec(doc.env_id)
    single, vector = _resolve(_entry(spec, "entry_point")), _resolve(_entry(spec, "vector_entry_point"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = single()
        planes = single(observation="planes")
    head = summary_table([
        ("Import", f'`gymnasium.make("{doc.env_id}")` (after `import gridiron_env`)'),
        ("Vector", f'`gymnasium.make_vec("{doc.env_id}", num_envs=N)`: natively batched'),
        ("Action space", _space(env.action_space)),
        ("Observation space", _space(env.observation_space)),
        ('Observation space, `observation="planes"`', _space(planes.observation_space)),
        ("Entry points", f"`{_entry(spec, 'entry_point')}`, `{_entry(spec, 'vector_entry_point')}`"),
        ("Render modes", ", ".join(f'`"{m}"`' for m in env.metadata["render_modes"])),
    ])
    env.close()
    planes.close()
    vector_only = [n for n in inspect.signature(vector).parameters if n not in inspect.signature(single).parameters]
    return f"""\
# {doc.title}

{head}
{doc.summary}

{_GYM_EXAMPLE.format(env_id=doc.env_id, kwargs="")}
{_GRIDIRON_ACTIONS}
{_gridiron_observation_section()}
## Rewards

{doc.reward}

## Starting state

{doc.start}

## Episode end

{doc.end}

Information at every step: `info["action_mask"]` (int8 [{NUM_ACTIONS}]), `info["learner_team"]`
(`"team_one"` or `"team_two"`) and, after an illegal action, `info["illegal_action"]` (`action` as given,
`name`, `reason`).

## Arguments

`gymnasium.make("{doc.env_id}", **options)`; `make_vec` takes the same and also
{", ".join(f"`{n}`" for n in vector_only)}.

{options_table(single, _GRIDIRON_OPTIONS)}
`config` fields (`GameConfig`; the drive envs default to `specials=False`):

{config_table(GameConfig)}
{_GRIDIRON_VERSIONS}
{docstring_block(single)}"""


def gridiron_aec_page() -> str:
    from gridiron_env.envs import pettingzoo_env as pz

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kinds = {k: pz.raw_env(observation=k) for k in pz.AEC_OBSERVATION_KINDS}
    env = kinds["features"]
    head = summary_table([
        ("Import", "`from gridiron_env import env, raw_env, parallel_env`"),
        ("AEC", "`gridiron_env.env()` (in OrderEnforcingWrapper), `gridiron_env.raw_env()` (unwrapped)"),
        ("Parallel", "`gridiron_env.parallel_env()` (turn-based, over `raw_env`)"),
        ("Agents", ", ".join(f"`{a}`" for a in env.possible_agents)),
        ("Action space", _space(env.action_space("team_one"))),
        *[(f'Observation space, `observation="{k}"`', _space(e.observation_space("team_one")))
          for k, e in kinds.items()],
        ("Metadata name", f'`{env.metadata["name"]}`'),
        ("Render modes", ", ".join(f'`"{m}"`' for m in env.metadata["render_modes"])),
    ])
    flat_layout = {"features": (pz.FLAT_LAYOUT["features"], "the `features` observation (Gridiron-v0's table)"),
                   "action_mask": (pz.FLAT_LAYOUT["action_mask"],
                                   "the action mask as 0.0 / 1.0 (the same ids as the dict's int8 mask)")}
    return f"""\
# Gridiron (PettingZoo AEC and parallel)

{head}
One game, two agents: `team_one` (team 0) and `team_two` (team 1). `agent_selection` is the team to act;
turns do not alternate (a team often acts several times in a row: moves, then `end turn`), so always read
it. `observe(agent)` works for either agent at any time, from that agent's own side.

```python
import numpy as np
import gridiron_env

env = gridiron_env.env()
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter(max_iter=300):
    obs, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
    env.step(action)
env.close()
```

## Parallel API and SuperSuit

`gridiron_env.parallel_env()` is PettingZoo's `turn_based_aec_to_parallel` over `raw_env`: each `step`
takes a dict of both agents' actions and plays only that of the agent to act (its infos'
`"active_agent"`); the other agent's entry is ignored. It passes `pettingzoo.test.parallel_api_test`.
SuperSuit's wrappers take Box observations only, so pass `observation="flat"`: one float32 vector, the
features then the mask (the mask is always the last {NUM_ACTIONS} values, after a frame stack too).

```python
import numpy as np
import supersuit as ss
import gridiron_env

env = gridiron_env.parallel_env(observation="flat")
env = ss.dtype_v0(ss.frame_stack_v1(env, 4), np.float32)
vec = ss.pettingzoo_env_to_vec_env_v1(env)       # a Gymnasium VectorEnv: one slot per agent
obs, infos = vec.reset(seed=0)
rng = np.random.default_rng(0)
for _ in range(100):
    actions = [rng.choice(np.flatnonzero(o[-{NUM_ACTIONS}:])) for o in obs]
    obs, rewards, terminations, truncations, infos = vec.step(np.array(actions))
```

`ss.concat_vec_envs_v1(vec, n, base_class="stable_baselines3")` makes an SB3 `VecEnv` of it. Two things
to know: SuperSuit's frame stack returns its own buffer, updated in place on the next step (copy an
observation to keep it); and every vector step returns both agents' rewards of that one AEC step (0 to
both until the game ends, unless `score_reward_scale` is set), whichever agent acted.

## Action space

The Gymnasium envs' space (see [Gridiron-v0](gridiron.md#action-space)): `Discrete({NUM_ACTIONS})`.
`action_mask` is the engine's legal actions for the agent to act; for the other agent, and for both once
the game is over, it marks only id 0, `end turn` (a placeholder: that agent's step is not taken, or takes
None once it is done). Any action is accepted: an illegal one (or an id outside 0..{NUM_ACTIONS - 1}, or a
bool) ends the game as a loss for the team that played it, both agents' infos holding `"illegal_action"`
(`team`, `action`, `name`, `reason`); `illegal_action="raise"` raises `IllegalActionError` instead.

## Observation space

`observation="features"` (default): `{{"observation": float32 [{gridiron_observe.FEATURES_SIZE}],
"action_mask": int8 [{NUM_ACTIONS}]}}`; `"planes"`: `{{"observation": {{"planes", "scalars"}}, "action_mask"}}`;
the tables are those of [Gridiron-v0](gridiron.md#observation-space). `"flat"`: one Box
[{pz.FLAT_SIZE}] (`gridiron_env.envs.pettingzoo_env.FLAT_LAYOUT`):

{layout_table(flat_layout)}
## Rewards

+1 to the winner and -1 to the loser when the game ends (an illegal action included), 0 to both on
truncation (`GameConfig.max_steps` agent actions); `score_reward_scale` > 0 adds, on every step, that scale
times the change of (own score - other score).

## Episode end

Both agents terminate when the game ends with a winner and truncate at `GameConfig.max_steps`; their
infos then hold `"winner"` (an agent name or None) and `"score"` (team one's, team two's). As PettingZoo
has it, `step(None)` then removes the selected dead agent; once both are removed `step` raises
RuntimeError until `reset`. `reset(seed=s)` plays the engine's game seeded s, a later `reset()` s + 1,
s + 2, ...; `set_state(state)` continues from a given position.

## Arguments

`gridiron_env.env(**options)`, `raw_env(**options)` and `parallel_env(**options)`:

{options_table(pz.raw_env, _AEC_OPTIONS)}
GameConfig fields may be given as keywords too (`gridiron_env.env(target_score=7)`); see the
[config table](gridiron.md#arguments).

## Version history

- **v0** (`gridiron_v0`): the current version; `observation="flat"` and `parallel_env()` were added to it
  without changing the default observation.

{docstring_block(pz)}"""


# ------------------------------------------------------------------------------------------ protocol games

_PROTOCOL_OPTIONS = {
    "game": "the game (a registered name or a GameSpec)",
    "variant": "the registered variant (its fixed config fields)",
    "learner_team": '"one", "two" or "random" (drawn per episode from the seed)',
    "opponent": "None (uniformly random legal actions from a per-game stream), an agent with "
                "`act(state, config, games)`, or a callable (obs, mask) -> actions",
    "illegal_action": '"lose" (the learner loses, `info["illegal_action"]` says why) or "raise"',
    "config": "the game's config or a dict of its fields (table below)",
    "max_episode_steps": "learner steps, then truncated (None: only the game's own cap)",
    "render_mode": 'None, "ansi" or "rgb_array"',
    "observation": '"features" (dict of observation and int8 mask) or "flat" (one float32 Box: the '
                   'observation, then the mask as 0/1)',
    "scenario": "None, or a name of the game's `GameSpec.scenarios` (Gridiron's: [Scenarios](../scenarios.md)): "
                "every episode starts from that position",
}


_PROTOCOL_AEC_OPTIONS = {
    **_PROTOCOL_OPTIONS,
    "render_mode": 'None, "human" (prints the text picture after each step), "ansi" or "rgb_array"',
    "illegal_action": '"lose" (the team that played it loses, both infos hold "illegal_action") or "raise"',
    "config": "the game's config or a dict of its fields (the Gymnasium pages' table); fields may also be "
              "passed as keywords",
}


def _slug(env_id: str) -> str:
    """``gridiron_env/TableFootballClock-v0`` -> ``table_football_clock``."""
    name = env_id.split("/")[-1].rsplit("-v", 1)[0]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _game_package(game: protocol.GameSpec) -> Path:
    return Path(importlib.import_module(game.init.__module__).__file__).parent


def game_rules_path(game: protocol.GameSpec) -> Path | None:
    path = _game_package(game) / "RULES.md"
    return path if path.exists() else None


def _game_title(game: protocol.GameSpec) -> str:
    rules = game_rules_path(game)
    if rules:
        first = rules.read_text().splitlines()[0].lstrip("# ")
        return first.split(":")[0].strip()
    return game.name.replace("_", " ").title()


# What a newcomer should know of a game first (a game not listed here shows its package docstring's first
# paragraph instead).
_GAME_SUMMARIES = {
    "table_football": "Table Football is a short dice game of football on a 100-yard field: before each down "
                      "the offence runs a play (2d6 on a results table: passes, runs, sacks, fumbles, "
                      "interceptions), kicks a field goal (1d6 x 10 yards must reach the goal line) or, on "
                      "the last down, punts; four downs (or three) to gain ten yards. The clock version "
                      "plays four quarters of 15-second boxes with time-outs and out-of-bounds plays.",
}


def _game_intro(game: protocol.GameSpec) -> str:
    if game.name in _GAME_SUMMARIES:
        return _GAME_SUMMARIES[game.name]
    doc = inspect.getdoc(importlib.import_module(game.init.__module__.rsplit(".", 1)[0])) or ""
    return doc.split("\n\n")[0].replace("\n", " ")


def protocol_ids() -> dict[str, tuple[str, str]]:
    """Every registered id of a protocol game that can be loaded now: id -> (game, variant)."""
    out = {}
    for env_id, (game, variant, *_keywords) in registration.IDS.items():
        try:
            protocol.get_game(game)
        except Exception:  # a game still being built: no page until it loads
            continue
        out[env_id] = (game, variant)
    return out


def protocol_games() -> list[str]:
    games = []
    for game, _variant in protocol_ids().values():
        if game not in games:
            games.append(game)
    return games


def _protocol_versions() -> str:
    return "## Version history\n\n- **v0**: the first and current version.\n"


def protocol_env_page(env_id: str, game_name: str, variant: str) -> str:
    from gridiron_env.adapters.single import GameEnv

    game = protocol.get_game(game_name)
    spec = gymnasium.spec(env_id)
    fixed = game.variants[variant]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make(env_id).unwrapped
    low, high = game.observation_bounds
    head = summary_table([
        ("Import", f'`gymnasium.make("{env_id}")` (after `import gridiron_env`)'),
        ("Vector", f'`gymnasium.make_vec("{env_id}", num_envs=N)`: natively batched'),
        ("Action space", _space(env.action_space)),
        ("Observation space", _space(env.observation_space)),
        ("Game", f"`{game.name}`, variant `{variant}`"),
        ("Entry points", f"`{_entry(spec, 'entry_point')}`, `{_entry(spec, 'vector_entry_point')}`"),
        ("Render modes", ", ".join(f'`"{m}"`' for m in env.metadata["render_modes"])),
    ])
    env.close()
    rules = game_rules_path(game)
    rules_link = f"The rules: [{_game_title(game)} rules](../rules/{game.name}.md)." if rules else ""
    variant_note = ("" if not fixed else "This id fixes " + ", ".join(f"`{k}={v!r}`" for k, v in fixed.items())
                    + " (a config that disagrees is a ValueError).")
    return f"""\
# {env_id.split("/")[-1]}

{head}
{_game_intro(game)} The learner plays one team for a whole game against an opponent policy that acts
inside the env. {variant_note} {rules_link}

{_GYM_EXAMPLE.format(env_id=env_id, kwargs="")}
## Action space

`Discrete({game.num_actions})`, one space for both teams. `info["action_mask"]` (int8) and
`env.action_masks()` (bool) give the legal ids; a mask is never all zero (where the action is ignored it
marks only `{game.action_names[game.ignored_action]}`, id {game.ignored_action}). An illegal id, an id
outside the space or a bool ends the game as a loss for the learner, or raises with
`illegal_action="raise"`.

{action_table(game.action_names)}
## Observation space

float32 [{game.observation_size}] from the learner's side, every value in [{low:g}, {high:g}]
(`GameSpec.observation_layout`):

{layout_table(game.observation_layout)}
## Rewards

+1 when the learner's team wins, -1 when it loses (an illegal action of the learner included), 0 for a
draw and on truncation.

## Starting state

A new game dealt from the seed: `reset(seed=s)` plays the engine's game seeded s (game i of
`make_vec(..., num_envs=N)` reset with seed s plays like a lone env reset with s + i), a later `reset()`
the next episode of the same stream. The learner's team is `learner_team`.
`reset(options={{"state": state}})` starts from a given position.

## Episode end

**Terminated** when the game ends with a result (a win or a draw), an illegal action included.
**Truncated** with no result by the game's own cap or after `max_episode_steps` learner steps. Infos:
`"action_mask"`, `"learner_team"`, and `"illegal_action"` (`team`, `action`, `name`, `reason`) after one.

## Arguments

{options_table(GameEnv, _PROTOCOL_OPTIONS, fixed=dict(spec.kwargs))}
`config` fields (`{game.config_class.__name__}`):

{config_table(game.config_class, fixed)}
{_protocol_versions()}
{docstring_block(importlib.import_module("gridiron_env.adapters.single"))}"""


def protocol_aec_page(game_name: str) -> str:
    from gridiron_env.adapters import pettingzoo as pz

    game = protocol.get_game(game_name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = pz.raw_env(game_name)
        flat = pz.raw_env(game_name, observation="flat")
    package = importlib.import_module(game.init.__module__).__name__.rsplit(".", 1)[0]
    has_fns = all(hasattr(importlib.import_module(package), f) for f in ("env", "raw_env", "parallel_env"))
    imp = (f"`from {package} import env, raw_env, parallel_env`" if has_fns
           else f'`gridiron_env.adapters.pettingzoo.env("{game_name}")`')
    call = f"{package.rsplit('.', 1)[-1]}." if has_fns else "pettingzoo_adapter."
    head = summary_table([
        ("Import", imp),
        ("Parallel API", "yes: `parallel_env()`, turn-based"),
        ("Agents", ", ".join(f"`{a}`" for a in env.possible_agents)),
        ("Action space", _space(env.action_space("team_one"))),
        ("Observation space", _space(env.observation_space("team_one"))),
        ('Observation space, `observation="flat"`', _space(flat.observation_space("team_one"))),
        ("Variants", ", ".join(f"`{v}`" for v in game.variants)),
        ("Metadata name", f'`{env.metadata["name"]}`'),
    ])
    A = game.num_actions
    imports = (f"from {package.rsplit('.', 1)[0]} import {package.rsplit('.', 1)[-1]}" if has_fns
               else "from gridiron_env.adapters import pettingzoo as pettingzoo_adapter")
    first = f"{call}env()" if has_fns else f'{call}env("{game_name}")'
    par = f"{call}parallel_env(observation=\"flat\")" if has_fns else \
        f'{call}parallel_env("{game_name}", observation="flat")'
    flat_layout = {"observation": (slice(0, game.observation_size), "the observation (the Gymnasium pages' table)"),
                   "action_mask": (slice(game.observation_size, game.observation_size + A),
                                   "the action mask as 0.0 / 1.0")}
    return f"""\
# {_game_title(game)} (PettingZoo AEC and parallel)

{head}
One game, two agents `team_one` (team 0) and `team_two` (team 1), through the generic PettingZoo adapter
(`gridiron_env.adapters.pettingzoo`). `agent_selection` is the team to act (turns need not alternate);
`observe(agent)` works for either agent at any time. `variant=` picks a variant; config fields may be given
as keywords.

```python
import numpy as np
{imports}

env = {first}
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter(max_iter=300):
    obs, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else rng.choice(np.flatnonzero(obs["action_mask"]))
    env.step(action)
env.close()
```

## Parallel API and SuperSuit

`parallel_env()` is PettingZoo's `turn_based_aec_to_parallel` over `raw_env`: each step plays the action
of the agent to act and ignores the other's. It passes `pettingzoo.test.parallel_api_test`. SuperSuit's
`frame_stack_v1` and `dtype_v0` refuse the default Dict observation (a Dict space has no `low` and is not
stackable); `observation="flat"` gives one Box, the observation then the mask:

```python
import numpy as np
import supersuit as ss
{imports}

env = ss.dtype_v0(ss.frame_stack_v1({par}, 4), np.float32)
vec = ss.pettingzoo_env_to_vec_env_v1(env)
obs, infos = vec.reset(seed=0)
masks = obs[:, -{A}:]                                 # the current masks: the last {A} values
```

{layout_table(flat_layout)}
## Actions, observation, options

The action and observation tables are those of the Gymnasium envs ({", ".join(
        f"[{env_id.split('/')[-1]}]({_slug(env_id)}.md)" for env_id, (g, _v) in protocol_ids().items()
        if g == game_name)}). The mask is the legal actions for the agent to act; for the other agent, and
for both once the game is over, it marks only `{game.action_names[game.ignored_action]}` (never all
zero). Rewards: +1 to the winner, -1 to the loser when the game ends (an illegal action included), 0 to
both for a draw and on truncation. At the end both infos hold `"winner"`, `"draw"` and `"score"`.

{options_table(pz.GameAECEnv, _PROTOCOL_AEC_OPTIONS)}
## Version history

- **v0** (`{env.metadata["name"]}`): the current version; `observation="flat"` was added without changing
  the default.

{docstring_block(pz)}"""


# ------------------------------------------------------------------------------------- rules, guides, etc.

def _shift_headings(text: str, levels: int = 0) -> str:
    """Every Markdown heading ``levels`` deeper, outside fenced code blocks (whose lines may start with #)."""
    out, fence = [], None
    for line in text.splitlines():
        marker = re.match(r"^\s*(```+|~~~+)", line)
        if marker:
            if fence is None:
                fence = marker.group(1)
            elif marker.group(1).startswith(fence):
                fence = None
        elif fence is None and levels and re.match(r"^#+ ", line):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def rules_page(path: Path, note: str) -> str:
    """A rulebook as it stands, with a note saying which file it is."""
    text = path.read_text()
    lines = text.splitlines()
    # one H1 (the title), the rulebook's own top-level sections below it: the page's table of contents
    title, body = lines[0], _shift_headings("\n".join(lines[1:]), 1)
    return f"{title}\n\n!!! info \"{note}\"\n    This page is `{path.relative_to(ROOT)}`, included as it stands.\n{body}\n"


def readme_sections(*titles: str) -> str:
    """The README's ``## title`` sections, verbatim (headings kept)."""
    readme = (ROOT / "README.md").read_text()
    parts = re.split(r"(?m)^(?=## )", readme)
    by_title = {p.splitlines()[0][3:].strip(): p for p in parts if p.startswith("## ")}
    missing = [t for t in titles if t not in by_title]
    if missing:
        raise ValueError(f"README.md has no section(s) {missing}")
    return "\n".join(by_title[t].rstrip() + "\n" for t in titles)


def command_help(module: str) -> str:
    """The ``--help`` text of ``python -m module`` (its argparse parser, run in this process)."""
    main = importlib.import_module(module).main
    out = io.StringIO()
    argv0, columns = sys.argv[0], os.environ.get("COLUMNS")
    sys.argv[0] = f"python -m {module}"
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal: the same text on every machine
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                main(["--help"])
            except SystemExit:
                pass
    finally:
        sys.argv[0] = argv0
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue().rstrip()


def help_block(module: str) -> str:
    text = command_help(module)
    return f"```text\n$ python -m {module} --help\n{text}\n```\n"


def benchmarks_page() -> str:
    return f"""\
# Benchmarks

The figures below are the README's, included as they stand (measured with the commands they name; compare
figures measured side by side: the machine is shared).

{_shift_headings(readme_sections("Speed", "Results", "The panel", "The search baseline"))}"""


def scenarios_page() -> str:
    """Every scenario drawn from its own diagram (``gridiron_env.scenarios``), so the page cannot drift from
    the positions; the baselines' table is the README's "Scenarios" section."""
    from gridiron_env.core.visibility import team_view
    from gridiron_env.render import render_ansi
    from gridiron_env.scenarios import FAMILIES, FAMILY_IDS, SCENARIOS

    ids = {family: env_id for env_id, family in FAMILY_IDS.items()}
    rows = ["| scenario | title | family's drive id | side |", "|---|---|---|---|"]
    for sc in SCENARIOS.values():
        rows.append(f"| [`{sc.name}`](#{sc.name.replace('_', '-')}) | {_cell(sc.title)} | `{ids[sc.family]}` | "
                    f"{sc.side} |")
    sections = []
    for sc in SCENARIOS.values():
        drawn = [f"- `{{{d.name}}}`: {d.meaning}; one of {', '.join(f'`{v}`' for v in d.values)}"
                 for d in sc.draws]
        drawn += ["- the team on offence: team one (as in the diagram) or team two (the half turn of the "
                  "position, the teams swapped)",
                  "- `{specials}`: each team's special, each of the four (with `GameConfig(specials=True)`; "
                  "`- -` without)"]
        first = FAMILIES[sc.family][0] == sc.name
        seed = next(k for k in range(64) if sc.picks([k])["offence"][0] == 0)  # drawn as in the diagram
        picture = render_ansi(team_view(sc.state(seed), team=-1), 0)  # a spectator's: no hidden ball shown
        sections.append(f"""## {sc.title} {{#{sc.name.replace('_', '-')}}}

`{sc.name}` · family `{sc.family}` (`gymnasium.make("{ids[sc.family]}"{'' if first else f', scenario="{sc.name}"'})`, the
learner on the {sc.side}) · `reset(options={{"scenario": "{sc.name}"}})`

{sc.description}

Drawn from each game's seed, each value equally likely:

{chr(10).join(drawn)}

The diagram (team one on offence, attacking up the page; RULES.md "Diagrams"):

```text
{sc.diagram.rstrip()}
```

As drawn for seed {seed} with the default config (a spectator's picture):

```text
{picture.rstrip()}
```
""")
    return f"""# Scenarios

Named starting positions, in the spirit of Google Research Football's academy: `gridiron_env.SCENARIOS`
maps each name to a `Scenario` (name, title, family, side, description, its diagram and the open parts it
draws from the seed). Each is a partial diagram (RULES.md "Diagrams") with team one on offence; what it
leaves open is drawn from each game's seed, so the same seed gives the same position and the same game. The
config decides the rest (the last drive's score is the config's target score). Every position passes the
engine's invariant checker, and after it the game plays on by the normal rules. This page draws each
scenario from its own diagram when the site is built.

```python
import gymnasium
import gridiron_env

print(list(gridiron_env.SCENARIOS))
state = gridiron_env.SCENARIOS["red_zone"].build([0, 1, 2])   # a State of three games, one per seed

env = gymnasium.make("gridiron_env/Gridiron-v0")                  # a whole game from a scenario
obs, info = env.reset(seed=0, options={{"scenario": "goal_line_stand"}})
drive = gymnasium.make("gridiron_env/GridironGoalLineStand-v0")   # one drive, the learner on defence
obs, info = drive.reset(seed=0)
vec = gymnasium.make_vec("gridiron_env/GridironRedZone-v0", num_envs=8)
obs, infos = vec.reset(seed=0)
aec = gridiron_env.env(scenario="blind_scramble")                 # every game from the scramble
aec.reset(seed=0)
```

- `reset(options={{"scenario": name}})` works on every Gridiron env: the Gymnasium envs (whole game,
  offence and defence drives, their vector envs: one name for every game reset or a list of one name or
  `None` per game), the PettingZoo AEC and parallel envs, `SelfPlayBatch` (`reset(scenario=)`) and the
  generic adapters serving Gridiron; the SB3 `VecEnv` takes `set_options({{"scenario": name}})` before
  `reset()`. It starts the episodes of that reset; `scenario=` when making an env
  starts every episode from it, autoresets included. An unknown name is a `ValueError` naming it and
  listing the allowed ones.
- In a drive env the learner's team takes the env's side of the scenario (its `learner_team`: "one",
  "two" or "random", drawn from the seed); in a whole-game env the team on offence is the scenario's draw.
- `gridiron_env/GridironScenario-v0` takes `scenario=` any name; each family has its own id playing its
  first scenario (`scenario=` another of the same family), the learner on the family's side (`side=` the
  other). Every one has a natively batched vector entry point (`gymnasium.make_vec`).
- No observation shows the blind scramble's ball: its square is hidden from both teams, as the engine's own
  fumbles hide it, and this page draws a spectator's view.

{chr(10).join(rows)}

{chr(10).join(sections)}
## The baselines on each scenario

{_scenario_results()}"""


def _scenario_results() -> str:
    """The README "Scenarios" section from its measured table on (the rest of it is this page's intro)."""
    text = readme_sections("Scenarios")
    start = text.find("The attacking side's scoring rate")
    if start < 0:
        raise ValueError("README.md's Scenarios section has no measured table ('The attacking side's scoring rate')")
    return text[start:]


def bot_levels_table() -> str:
    from agents.bot import DEFAULT_LEVEL, LEVELS

    lines = ["| level | sampling temperature |", "|---|---|"]
    lines += [f"| `{name}`{' (default)' if name == DEFAULT_LEVEL else ''} | {t:g} |" for name, t in LEVELS.items()]
    return "\n".join(lines) + "\n"


def generated_snippets() -> dict[str, str]:
    """Generated parts of the static guide pages: ``{{name}}`` in a docs/*.md page is replaced by these."""
    return {
        "bot_levels": bot_levels_table(),
        "bot_provenance": (ROOT / "gridiron_env" / "data" / "BOT.md").read_text().split("\n", 1)[1],
        "help_play": f"```text\n$ gridiron-play --help\n{command_help('agents.play')}\n```\n",
        "help_selfplay": help_block("train.selfplay"),
        "help_evaluate": help_block("train.evaluate"),
        "help_levels": help_block("train.levels"),
        "help_exploit": help_block("train.exploit"),
        "help_distill": help_block("train.distill"),
        "help_fronts": help_block("train.fronts"),
        "help_tournament": help_block("train.tournament"),
        "help_rllib": help_block("train.rllib_selfplay"),
    }


def environments_index() -> str:
    lines = ["| environment | import | kind | actions | observation |", "|---|---|---|---|---|"]
    for doc in GRIDIRON_ENVS:
        lines.append(f"| [{doc.title}]({doc.slug}.md) | `gymnasium.make(\"{doc.env_id}\")` | Gymnasium, one "
                     f"learner | {NUM_ACTIONS} | {gridiron_observe.FEATURES_SIZE} features or planes |")
    lines.append(f"| [Gridiron AEC / parallel](gridiron_aec.md) | `gridiron_env.env()`, `parallel_env()` | "
                 f"PettingZoo, two agents | {NUM_ACTIONS} | dict or flat Box |")
    from gridiron_env.scenarios import FAMILY_IDS

    lines.append(f"| [Gridiron scenario drives](../scenarios.md) | `gymnasium.make(\"gridiron_env/GridironScenario-v0\", "
                 f"scenario=...)` and {len(FAMILY_IDS)} family ids | Gymnasium, one learner | {NUM_ACTIONS} | "
                 f"{gridiron_observe.FEATURES_SIZE} features or planes |")
    for env_id, (game_name, _variant) in protocol_ids().items():
        game = protocol.get_game(game_name)
        lines.append(f"| [{env_id.split('/')[-1]}]({_slug(env_id)}.md) | `gymnasium.make(\"{env_id}\")` | "
                     f"Gymnasium, one learner | {game.num_actions} | {game.observation_size} features |")
    for game_name in protocol_games():
        game = protocol.get_game(game_name)
        lines.append(f"| [{_game_title(game)} AEC / parallel]({game_name}_aec.md) | PettingZoo | two agents | "
                     f"{game.num_actions} | dict or flat Box |")
    return f"""\
# Environments

Every environment of every game, one page each. Every Gymnasium id has a natively batched vector entry
point (`gymnasium.make_vec(id, num_envs=N)`), and every game has a two-player PettingZoo env (AEC and
parallel). The conventions they share: an illegal action loses the game (`illegal_action="raise"` raises
instead), masks are int8 and never all zero, seeds are ints >= 0 taken modulo 2**64, game i of a batch
seeded s plays like a lone env seeded s + i.

{chr(10).join(lines)}
"""


def pages() -> dict[str, str]:
    """Every generated page: {path under docs/: markdown}."""
    out = {"environments/index.md": environments_index()}
    for doc in GRIDIRON_ENVS:
        out[f"environments/{doc.slug}.md"] = gridiron_env_page(doc)
    out["environments/gridiron_aec.md"] = gridiron_aec_page()
    for env_id, (game, variant) in protocol_ids().items():
        out[f"environments/{_slug(env_id)}.md"] = protocol_env_page(env_id, game, variant)
    for game in protocol_games():
        out[f"environments/{game}_aec.md"] = protocol_aec_page(game)
    out["rules/gridiron.md"] = rules_page(ROOT / "RULES.md", "The Gridiron rulebook")
    for game in protocol_games():
        path = game_rules_path(protocol.get_game(game))
        if path:
            out[f"rules/{game}.md"] = rules_page(path, f"The {_game_title(protocol.get_game(game))} rulebook")
    out["benchmarks.md"] = benchmarks_page()
    out["scenarios.md"] = scenarios_page()
    return out


def nav(generated: dict[str, str] | None = None) -> list:
    generated = pages() if generated is None else generated
    envs = [{"Overview": "environments/index.md"}]
    envs += [{doc.title: f"environments/{doc.slug}.md"} for doc in GRIDIRON_ENVS]
    envs.append({"Gridiron AEC / parallel": "environments/gridiron_aec.md"})
    for env_id in protocol_ids():
        envs.append({env_id.split("/")[-1]: f"environments/{_slug(env_id)}.md"})
    for game in protocol_games():
        envs.append({f"{_game_title(protocol.get_game(game))} AEC / parallel": f"environments/{game}_aec.md"})
    rules = [{"Gridiron": "rules/gridiron.md"}]
    rules += [{_game_title(protocol.get_game(g)): f"rules/{g}.md"} for g in protocol_games()
              if f"rules/{g}.md" in generated]
    return ([{STATIC_HOME[1]: STATIC_HOME[0]}, {"Environments": envs}, {"Rules": rules}]
            + [{title: path} for path, title in STATIC_GUIDES + extra_static_pages(generated)]
            + [{"Scenarios": "scenarios.md"}, {"Benchmarks": "benchmarks.md"}])


def extra_static_pages(generated: dict[str, str]) -> list[tuple[str, str]]:
    """Pages in docs/ that the nav does not name otherwise (added by hand later): (path, their first
    heading), by path, so that a new page is never left out of the site (mkdocs --strict would refuse)."""
    known = {STATIC_HOME[0]} | {path for path, _ in STATIC_GUIDES} | set(generated)
    out = []
    for file in sorted((ROOT / "docs").rglob("*.md")):
        path = file.relative_to(ROOT / "docs").as_posix()
        if path in known:
            continue
        heading = next((line[2:].strip() for line in file.read_text().splitlines() if line.startswith("# ")),
                       file.stem.replace("_", " ").capitalize())
        out.append((path, heading))
    return out


def fill_snippets(markdown: str, snippets: dict[str, str]) -> str:
    """Replace each ``{{name}}`` line of a static page by its generated snippet (an unknown one raises)."""
    def sub(m):
        if m.group(1) not in snippets:
            raise ValueError(f"unknown docs snippet {{{{{m.group(1)}}}}}; known: {sorted(snippets)}")
        return snippets[m.group(1)]

    return re.sub(r"(?m)^\{\{(\w+)\}\}$", sub, markdown)


# ----------------------------------------------------------------------------------------------- hooks

_BUILD: dict = {}


def on_config(config, **kwargs):
    _project_importable()
    _BUILD["pages"] = pages()
    _BUILD["snippets"] = generated_snippets()
    config["nav"] = nav(_BUILD["pages"])
    return config


def on_files(files, config, **kwargs):
    from mkdocs.structure.files import File

    for path, text in _BUILD["pages"].items():
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown, page, config, files, **kwargs):
    return fill_snippets(markdown, _BUILD["snippets"])


if __name__ == "__main__":
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "site_pages")
    for path, text in pages().items():
        target = out_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    print(f"wrote {len(pages())} pages to {out_dir}")
