"""notebooks/quickstart.ipynb runs from top to bottom (tiny sizes) and shows its key outputs."""

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "quickstart.ipynb"


def _outputs(nb, output_type=None):
    for cell in nb.cells:
        if cell.cell_type == "code":
            for out in cell.get("outputs", []):
                if output_type is None or out.get("output_type") == output_type:
                    yield cell, out


def _text(out) -> str:
    if out.get("output_type") == "stream":
        return out.get("text", "")
    data = out.get("data", {})
    return "\n".join(str(data.get(kind, "")) for kind in ("text/plain", "text/markdown"))


def test_quickstart_notebook_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("GRIDIRON_NOTEBOOK_QUICK", "1")
    monkeypatch.setenv("GRIDIRON_NOTEBOOK_OUT", str(tmp_path / "out"))
    # the kernelspec starts "python": make it this interpreter, whatever else is on PATH
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))

    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert any(c.cell_type == "markdown" for c in nb.cells)
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit the notebook without outputs"
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError on the first failing cell

    errors = [out for _, out in _outputs(nb, "error")]
    assert not errors, errors
    text = "\n".join(_text(out) for _, out in _outputs(nb))
    assert "QUICK=True" in text
    assert "action mask: (291,)" in text
    assert "final score (team one, team two)" in text
    assert "UPPER team one" in text  # the ansi board's legend
    assert "bot at " in text
    assert "| rank | agent | Elo (95% CI) |" in text  # the tournament's Markdown table
    markdown = [out for _, out in _outputs(nb, "display_data") if "text/markdown" in out.get("data", {})]
    assert markdown and "heuristic" in markdown[0]["data"]["text/markdown"]
    images = [out for _, out in _outputs(nb) if "image/png" in out.get("data", {})]
    assert len(images) >= 2, "expected the game frame and the tournament plot as images"
    out = tmp_path / "out"
    assert (out / "selfplay" / "bot.npz").is_file()
    assert (out / "tournament" / "results.png").is_file()
