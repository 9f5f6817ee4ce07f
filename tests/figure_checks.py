"""Checks shared by the tests of figures built without plotly.py's validation (`_validate=False`)."""

import json

import plotly.graph_objects as go


def assert_sends_what_plotly_would_validate(fig: go.Figure) -> None:
    """`fig`, rebuilt with plotly.py's validation, sends the same JSON: no property plotly would reject
    (rebuilding raises) or change (a named colour scale expanded, an empty list dropped). The template is
    left out: react_ready drops it, and a validated figure gets plotly's default."""
    sent = json.loads(fig.to_json())
    validated = json.loads(go.Figure(fig.to_plotly_json()).to_json())
    for figure_json in (sent, validated):
        figure_json["layout"].pop("template", None)
    assert validated == sent
