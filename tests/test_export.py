"""Export: file names from page, view and sentence; a heatmap's CSV holds exactly its matrices."""
import csv
import io

import numpy as np

from viz_model import figures
from viz_model.figures.export import export_name, heatmap_csv


def test_export_name():
    assert export_name("attention", "heads", "Please buy an apple!") == "attention-heads-please-buy-an-apple"
    assert export_name("step", "block", "我爱你。") == "step-block-我爱你"
    assert export_name("", "", "") == "chart"
    assert "/" not in export_name("a/b", "../c", "<script>")


def test_heatmap_csv_equals_the_matrices():
    rng = np.random.default_rng(0)
    Z = rng.random((2, 3, 4)).astype(np.float32)
    mask = np.ones((3, 4), bool)
    mask[0, 3] = False
    fig = figures.heatmaps(Z, ["0:a", "1:<b>", "2:c"], ["w", "x", "y", "z"], y_title="q", x_title="k",
                           value_name="v", panel_titles=["one", "two"], mask=mask)
    rows = list(csv.reader(io.StringIO(heatmap_csv(fig))))
    assert rows[0] == ["one"] and rows[1] == ["", "w", "x", "y", "z"]
    assert [r[0] for r in rows[2:5]] == ["0:a", "1:<b>", "2:c"]
    first = np.array([[np.nan if x == "" else float(x) for x in r[1:]] for r in rows[2:5]])
    np.testing.assert_allclose(np.nan_to_num(first), np.where(mask, Z[0], 0), rtol=1e-6)
    assert rows[2][4] == ""                                    # masked: empty
    assert rows[6] == ["two"]
    assert heatmap_csv(figures.bar_chart(["a"], [1.0], x_title="x", y_title="y")) is None


def test_every_heatmap_on_a_page_has_its_csv_download():
    from tests.app_harness import chart_keys, open_app
    at = open_app("pages/attention.py", text="I saw a saw.")
    downloads = [d.proto.id.rsplit("-", 1)[-1] for d in at.get("download_button")]
    assert chart_keys(at) == ["attention.heads"] and downloads == ["attention.heads.csv"]
    spec = at.get("plotly_chart")[0].proto
    assert "attention-heads-i-saw-a-saw" in spec.config          # the toolbar's image file name
