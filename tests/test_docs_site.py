"""The docs site: its generated tables equal the code's own layouts, names and signatures; every
environment of every game has its page; the pages' examples run; ``mkdocs build --strict`` passes."""

import dataclasses
import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from gridiron_env import protocol
from gridiron_env.adapters import registration
from gridiron_env.config import GameConfig
from gridiron_env.core import ACTION_NAMES, NUM_ACTIONS
from gridiron_env.envs import pettingzoo_env

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("docs_pages", ROOT / "tools" / "docs_pages.py")
docs_pages = importlib.util.module_from_spec(_spec)
sys.modules["docs_pages"] = docs_pages  # (dataclasses look their module up there)
_spec.loader.exec_module(docs_pages)
observe = docs_pages.gridiron_observe

GRIDIRON_IDS = ("gridiron_env/Gridiron-v0", "gridiron_env/GridironOffence-v0", "gridiron_env/GridironDefence-v0")


@pytest.fixture(scope="module")
def pages():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return docs_pages.pages()


def _loadable_protocol_ids():
    out = {}
    for env_id, (game, variant, *_keywords) in registration.IDS.items():
        try:
            protocol.get_game(game)
        except Exception:
            continue
        out[env_id] = (game, variant)
    return out


def _section(page: str, title: str) -> str:
    start = page.index(f"## {title}\n")
    nxt = page.find("\n## ", start + 1)
    return page[start:] if nxt < 0 else page[start:nxt]


def _unsplit_index(cell: str) -> tuple[int, int]:
    first, _, last = cell.partition("-")
    return int(first), int(last or first)


def _assert_table_is_layout(rows, layout, size):
    """Rows (index, size, name, meaning) equal the layout's slices in order and cover 0..size-1 once."""
    expected = sorted((sl.start, sl.stop - 1, name, meaning) for name, (sl, meaning) in layout.items())
    assert len(rows) == len(expected)
    at = 0
    for row, (first, last, name, meaning) in zip(rows, expected):
        assert _unsplit_index(row[0]) == (first, last)
        assert int(row[1]) == last - first + 1
        assert row[2] == name and row[3] == meaning
        assert first == at  # contiguous: no gap, no overlap
        at = last + 1
    assert at == size


# --- every environment has its page ----------------------------------------------------------------------

def test_every_registered_environment_has_a_page_in_the_nav(pages):
    nav = docs_pages.nav(pages)
    flat = []

    def walk(items):
        for item in items:
            for value in item.values():
                walk(value) if isinstance(value, list) else flat.append(value)

    walk(nav)
    for env_id in GRIDIRON_IDS:
        slug = docs_pages._slug(env_id)
        assert f"environments/{slug}.md" in pages and f"environments/{slug}.md" in flat
        assert f'gymnasium.make("{env_id}")' in pages[f"environments/{slug}.md"]
    for env_id in _loadable_protocol_ids():
        path = f"environments/{docs_pages._slug(env_id)}.md"
        assert path in pages and path in flat, env_id
        assert f'gymnasium.make("{env_id}")' in pages[path]
    for game in {g for g, _ in _loadable_protocol_ids().values()} | {"gridiron"}:
        assert f"environments/{game}_aec.md" in pages and f"environments/{game}_aec.md" in flat
    assert "table_football" in {g for g, _ in _loadable_protocol_ids().values()}
    # every page of the nav exists (generated, or a static page in docs/), and every generated page is in it
    for path in flat:
        assert path in pages or (ROOT / "docs" / path).exists(), path
    assert set(pages) <= set(flat)


def test_slugs_follow_the_ids():
    assert docs_pages._slug("gridiron_env/TableFootballClock-v0") == "table_football_clock"
    assert docs_pages._slug("gridiron_env/Gridiron-v0") == "gridiron"
    assert docs_pages._slug("gridiron_env/SomeNewGame-v3") == "some_new_game"


# --- the tables are the code's ----------------------------------------------------------------------------

@pytest.mark.parametrize("env_id", GRIDIRON_IDS)
def test_gridiron_observation_tables_equal_the_encoder_layout(pages, env_id):
    page = pages[f"environments/{docs_pages._slug(env_id)}.md"]
    section = _section(page, "Observation space")
    rows = docs_pages.parse_table(section, "| index | size | name | meaning |")
    _assert_table_is_layout(rows, observe.FEATURE_LAYOUT, observe.FEATURES_SIZE)
    planes = docs_pages.parse_table(section, "| plane | name | 1 on |")
    assert [(int(i), n, m) for i, n, m in planes] == sorted(
        (i, n, m) for n, (i, m) in observe.PLANE_LAYOUT.items())
    assert len(planes) == observe.N_PLANES
    scalars = docs_pages.parse_table(section[section.index("The `scalars` layout"):], "| index | size | name |")
    _assert_table_is_layout(scalars, observe.SCALAR_LAYOUT, observe.SCALARS_SIZE)
    assert f"float32 [{observe.FEATURES_SIZE}]" in section


@pytest.mark.parametrize("env_id", list(_loadable_protocol_ids()))
def test_protocol_observation_tables_equal_the_game_layout(pages, env_id):
    game = protocol.get_game(_loadable_protocol_ids()[env_id][0])
    page = pages[f"environments/{docs_pages._slug(env_id)}.md"]
    rows = docs_pages.parse_table(_section(page, "Observation space"), "| index | size | name | meaning |")
    _assert_table_is_layout(rows, game.observation_layout, game.observation_size)


def _assert_action_table(section, names):
    full = docs_pages.parse_table(section, "| id | name |")
    assert [(int(i), n) for i, n in full] == list(enumerate(names))


def test_gridiron_action_tables_equal_the_action_names(pages):
    for env_id in GRIDIRON_IDS:
        section = _section(pages[f"environments/{docs_pages._slug(env_id)}.md"], "Action space")
        _assert_action_table(section, ACTION_NAMES)
        assert f"Discrete({NUM_ACTIONS})" in section
        # the kinds summary: consecutive runs covering every id once, with their first and last names
        kinds = docs_pages.parse_table(section, "| kind | ids | count | first | last |")
        at = 0
        for kind, ids, count, first_name, last_name in kinds:
            first, last = _unsplit_index(ids)
            assert first == at and int(count) == last - first + 1
            assert ACTION_NAMES[first] == first_name and last_name in ("", ACTION_NAMES[last])
            assert all(ACTION_NAMES[i].split()[0] == ACTION_NAMES[first].split()[0] for i in range(first, last + 1))
            at = last + 1
        assert at == NUM_ACTIONS


@pytest.mark.parametrize("env_id", list(_loadable_protocol_ids()))
def test_protocol_action_tables_equal_the_action_names(pages, env_id):
    game = protocol.get_game(_loadable_protocol_ids()[env_id][0])
    section = _section(pages[f"environments/{docs_pages._slug(env_id)}.md"], "Action space")
    _assert_action_table(section, game.action_names)
    assert f"Discrete({game.num_actions})" in section


def test_flat_layout_table_equals_the_aec_env(pages):
    rows = docs_pages.parse_table(_section(pages["environments/gridiron_aec.md"], "Observation space"),
                                  "| index | size | name | meaning |")
    got = [(_unsplit_index(r[0]), r[2]) for r in rows]
    assert got == [((sl.start, sl.stop - 1), name) for name, sl in pettingzoo_env.FLAT_LAYOUT.items()]
    assert got[-1][0][1] == pettingzoo_env.FLAT_SIZE - 1


def _signature_defaults(cls):
    return {n: p.default for n, p in inspect.signature(cls).parameters.items()
            if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}


def test_options_and_config_tables_follow_the_signatures_and_dataclasses(pages):
    from gridiron_env.adapters.single import GameEnv

    for env_id in GRIDIRON_IDS + tuple(_loadable_protocol_ids()):
        page = pages[f"environments/{docs_pages._slug(env_id)}.md"]
        entry = gymnasium.spec(env_id).entry_point
        cls = docs_pages._resolve(entry if isinstance(entry, str) else f"{entry.__module__}:{entry.__qualname__}")
        options = docs_pages.parse_table(_section(page, "Arguments"), "| option | default | meaning |")
        defaults = _signature_defaults(cls)
        assert [r[0] for r in options] == list(defaults)
        fixed = gymnasium.spec(env_id).kwargs
        for name, default, meaning in options:
            assert meaning, name
            if name in fixed:
                assert default == f"{fixed[name]!r}` (fixed by this id)"
            else:
                assert default == repr(defaults[name])
        if env_id in GRIDIRON_IDS:
            config_class, fixed_fields = GameConfig, {}
        else:
            assert cls is GameEnv
            game = protocol.get_game(fixed["game"])
            config_class, fixed_fields = game.config_class, game.variants[fixed["variant"]]
        config = docs_pages.parse_table(_section(page, "Arguments"), "| field | default | meaning |")
        assert [r[0] for r in config] == [f.name for f in dataclasses.fields(config_class)]
        for name, default, _meaning in config:
            value = fixed_fields.get(name, getattr(config_class(), name))
            assert default.split("`")[0] == repr(value)
    aec = docs_pages.parse_table(_section(pages["environments/gridiron_aec.md"], "Arguments"), "| option |")
    assert [r[0] for r in aec] == list(_signature_defaults(pettingzoo_env.raw_env))


def test_config_docs_read_every_field_of_the_docstring():
    docs = docs_pages.config_docs(GameConfig)
    assert set(docs) == {f.name for f in dataclasses.fields(GameConfig)}
    assert docs["target_score"] == "points that win (rule 28), 1-99."
    for env_id, (game, _) in _loadable_protocol_ids().items():
        cls = protocol.get_game(game).config_class
        assert set(docs_pages.config_docs(cls)) <= {f.name for f in dataclasses.fields(cls)}


def test_summary_spaces_are_the_envs_spaces(pages):
    for env_id in GRIDIRON_IDS + tuple(_loadable_protocol_ids()):
        page = pages[f"environments/{docs_pages._slug(env_id)}.md"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = gymnasium.make(env_id)
        assert f"| Action space | `{env.action_space!r}` |" in page
        assert f"| Observation space | `{env.observation_space!r}` |" in page
        env.close()
    aec = pages["environments/gridiron_aec.md"]
    for kind in pettingzoo_env.AEC_OBSERVATION_KINDS:
        space = pettingzoo_env.raw_env(observation=kind).observation_space("team_one")
        row = next(line for line in aec.splitlines() if line.startswith(f'| Observation space, `observation="{kind}"`'))
        if kind == "flat":  # bounds differ by slice: the row gives the range, shape and dtype
            assert f"Box(-1..2, ({pettingzoo_env.FLAT_SIZE},), float32)" in row
        else:
            assert row.endswith(f"| `{space!r}` |")


def test_shift_headings_leaves_code_blocks_alone():
    text = "# Title\n\n```python\n# a comment\n```\n## Part\n~~~\n# drawn\n~~~\ntext # not a heading\n"
    assert docs_pages._shift_headings(text, 1) == (
        "## Title\n\n```python\n# a comment\n```\n### Part\n~~~\n# drawn\n~~~\ntext # not a heading\n")


def test_a_changed_layout_changes_the_table():
    layout = {"b": (slice(2, 5), "second"), "a": (slice(0, 2), "first | with a bar")}
    rows = docs_pages.parse_table(docs_pages.layout_table(layout), "| index |")
    assert rows == [["0-1", "2", "a", "first | with a bar"], ["2-4", "3", "b", "second"]]


# --- rules, benchmarks, guides -----------------------------------------------------------------------------

def _without_heading_marks(text):
    return re.sub(r"(?m)^#+ ", "", text)


def _top_level_headings(text):
    """H1 lines outside fenced code."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and line.startswith("# "):
            out.append(line)
    return out


def test_rules_and_benchmarks_pages_include_the_files_as_they_stand(pages):
    books = {"rules/gridiron.md": ROOT / "RULES.md"}
    for game in {g for g, _ in _loadable_protocol_ids().values()}:
        path = docs_pages.game_rules_path(protocol.get_game(game))
        if path is not None:
            books[f"rules/{game}.md"] = path
    for page_path, path in books.items():
        text, page = path.read_text(), pages[page_path]
        # the whole rulebook, its headings one level down under the page's one title
        assert _without_heading_marks(text.split("\n", 1)[1]).strip() in _without_heading_marks(page)
        assert page.splitlines()[0] == text.splitlines()[0]
        assert len(_top_level_headings(page)) == 1, page_path
    assert docs_pages.readme_sections("Speed").strip() in pages["benchmarks.md"]
    assert docs_pages.readme_sections("Speed").strip() in pages["benchmarks.md"]
    assert "| engine, `step` |" in pages["benchmarks.md"]
    with pytest.raises(ValueError, match="no section"):
        docs_pages.readme_sections("No Such Section")


def test_static_pages_use_only_known_snippets():
    snippets = docs_pages.generated_snippets()
    from agents.bot import LEVELS

    for name, t in LEVELS.items():
        assert f"| `{name}`" in snippets["bot_levels"] and f"| {t:g} |" in snippets["bot_levels"]
    assert "--agents" in snippets["help_tournament"] and "usage: python -m train.tournament" in snippets[
        "help_tournament"]
    for path in (ROOT / "docs").glob("*.md"):
        filled = docs_pages.fill_snippets(path.read_text(), snippets)
        assert not re.search(r"(?m)^\{\{\w+\}\}$", filled), path
    with pytest.raises(ValueError, match="unknown docs snippet"):
        docs_pages.fill_snippets("{{nope}}\n", snippets)


def test_readme_says_how_to_build_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert "mkdocs build --strict" in readme and "mkdocs serve" in readme


# --- the pages' examples run -------------------------------------------------------------------------------

def _python_blocks(markdown):
    return re.findall(r"```python\n(.*?)```", markdown, re.S)


def test_environment_pages_examples_run(pages):
    pytest.importorskip("supersuit")
    ran = 0
    for path, page in pages.items():
        if not path.startswith("environments/"):
            continue
        for block in _python_blocks(page):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(block, f"<{path}>", "exec"), {"__name__": "docs_example"})
            ran += 1
    assert ran >= 2 * len(GRIDIRON_IDS)


def _run_page_examples(names):
    ran = 0
    for name in names:
        for block in _python_blocks((ROOT / "docs" / name).read_text()):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(block, f"<{name}>", "exec"), {"__name__": "docs_example"})
            ran += 1
    return ran


def test_static_pages_examples_run():
    """The Python of every docs/ page but the training page (the next test)."""
    names = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name != "training.md")
    assert _run_page_examples(names) >= 2


@pytest.mark.slow
def test_training_page_example_runs():
    """The training page's tiny MaskablePPO run (torch's import and a rollout: several seconds)."""
    assert _run_page_examples(["training.md"]) >= 1


# --- the build --------------------------------------------------------------------------------------------

def test_mkdocs_build_strict_passes(tmp_path):
    if shutil.which("mkdocs") is None and importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    pytest.importorskip("material")
    site = tmp_path / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    for env_id in GRIDIRON_IDS + tuple(_loadable_protocol_ids()):
        html = (site / "environments" / docs_pages._slug(env_id) / "index.html").read_text()
        assert env_id.split("/")[-1] in html
    assert (site / "rules" / "gridiron" / "index.html").exists()
    assert (site / "benchmarks" / "index.html").exists()
    bot = (site / "bot" / "index.html").read_text()
    assert "{{" not in bot and "sampling temperature" in bot
    assert np.all([(site / p).exists() for p in ("index.html", "training/index.html", "tournaments/index.html")])


def test_a_page_added_to_docs_joins_the_nav(monkeypatch, tmp_path, pages):
    docs = tmp_path / "docs"
    (docs / "notes").mkdir(parents=True)
    for path, _title in [docs_pages.STATIC_HOME] + docs_pages.STATIC_GUIDES:
        (docs / path).write_text("# x\n")
    (docs / "notes" / "scenarios.md").write_text("Intro\n\n# Named scenarios\n")
    (docs / "zz_untitled.md").write_text("no heading\n")
    monkeypatch.setattr(docs_pages, "ROOT", tmp_path)
    assert docs_pages.extra_static_pages(pages) == [("notes/scenarios.md", "Named scenarios"),
                                                    ("zz_untitled.md", "Zz untitled")]
    assert {"Named scenarios": "notes/scenarios.md"} in docs_pages.nav(pages)
