"""docs/python.ipynb, executed (nbclient): no cell fails, and each cell's printed text is the text committed in the
notebook, so neither the code nor the outputs shown in the docs can rot. `WARPSIM_UPDATE_NOTEBOOK=1` writes the
fresh outputs into the notebook instead (review the diff)."""

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("numba")

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "python.ipynb"


def texts(cell):
    """What a code cell shows as text: its stdout and its result's text/plain, without object addresses."""
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif o["output_type"] in ("execute_result", "display_data"):
            data = o.get("data", {})
            if "text/html" in data or "image/svg+xml" in data:
                # Rich outputs are checked for their kind; their text/plain is a repr.
                out.append(sorted(k for k in data if k != "text/plain"))
            else:
                out.append(data.get("text/plain"))
        elif o["output_type"] == "error":
            out.append(f"error: {o['ename']}: {o['evalue']}")
    return out


def test_the_example_notebook_runs_and_shows_what_is_committed(tmp_path):
    committed = nbformat.read(NOTEBOOK, as_version=4)
    fresh = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(fresh, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)
    if os.environ.get("WARPSIM_UPDATE_NOTEBOOK") == "1":
        nbformat.write(fresh, NOTEBOOK)
        return
    code = [(c, f) for c, f in zip(committed.cells, fresh.cells) if c.cell_type == "code"]
    assert code, "the notebook has code cells"
    for k, (c, f) in enumerate(code):
        assert not any(o["output_type"] == "error" for o in f.outputs), f"code cell {k} fails: {texts(f)}"
        assert texts(f) == texts(c), f"code cell {k} shows something else than the notebook: {texts(f)}"
    # The result cell shows the picture and the stepper inline.
    shown = [o for _, f in code for o in f.outputs if "text/html" in o.get("data", {})]
    assert any("<svg" in o["data"]["text/html"] and "<iframe" in o["data"]["text/html"] for o in shown)
