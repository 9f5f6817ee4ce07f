"""The Transformer's architecture as boxes and arrows (Vaswani et al. 2017, Figure 1)."""

from __future__ import annotations

import plotly.graph_objects as go

from .look import BLUE, DARK, GREY, LOOK, PART_FILLS, TRANSPARENT, arrow, escape_label

# The parts the diagram names; `labels` maps each to its text in the interface language ("layers" is "{n}x").
ARCHITECTURE_PARTS = (
    "encoder",
    "decoder",
    "embedding",
    "positional",
    "self_attn",
    "masked_self_attn",
    "cross_attn",
    "ffn",
    "add_norm",
    "linear",
    "softmax",
    "inputs",
    "outputs",
    "probabilities",
    "layers",
    "memory",
)


def architecture(labels: dict[str, str], n_encoder_layers: int, n_decoder_layers: int) -> go.Figure:
    """The encoder–decoder Transformer as boxes and arrows (Vaswani et al. 2017, Figure 1).

    `labels` names the parts in the interface language: encoder, decoder, embedding, positional, self_attn,
    masked_self_attn, cross_attn, ffn, add_norm, linear, softmax, inputs, outputs, probabilities, layers
    ("{n}×"), memory (a newline allowed). Coordinates are in a fixed box; the figure holds no user text.
    """
    fig = go.Figure()
    enc, dec = (0.4, 4.0), (6.4, 10.0)  # x spans of the two columns
    boxes = [  # (column, y0, y1, fill, label)
        (enc, 0.4, 1.0, PART_FILLS["io"], labels["inputs"]),
        (enc, 1.3, 1.9, PART_FILLS["embedding"], labels["embedding"] + " + " + labels["positional"]),
        (enc, 2.7, 3.5, PART_FILLS["attention"], labels["self_attn"]),
        (enc, 3.7, 4.1, PART_FILLS["add_norm"], labels["add_norm"]),
        (enc, 4.5, 5.3, PART_FILLS["ffn"], labels["ffn"]),
        (enc, 5.5, 5.9, PART_FILLS["add_norm"], labels["add_norm"]),
        (dec, 0.4, 1.0, PART_FILLS["io"], labels["outputs"]),
        (dec, 1.3, 1.9, PART_FILLS["embedding"], labels["embedding"] + " + " + labels["positional"]),
        (dec, 2.7, 3.5, PART_FILLS["attention"], labels["masked_self_attn"]),
        (dec, 3.7, 4.1, PART_FILLS["add_norm"], labels["add_norm"]),
        (dec, 4.5, 5.3, PART_FILLS["cross"], labels["cross_attn"]),
        (dec, 5.5, 5.9, PART_FILLS["add_norm"], labels["add_norm"]),
        (dec, 6.3, 7.1, PART_FILLS["ffn"], labels["ffn"]),
        (dec, 7.3, 7.7, PART_FILLS["add_norm"], labels["add_norm"]),
        (dec, 8.6, 9.1, PART_FILLS["output"], labels["linear"]),
        (dec, 9.4, 9.9, PART_FILLS["output"], labels["softmax"]),
        (dec, 10.2, 10.8, PART_FILLS["io"], labels["probabilities"]),
    ]
    for (x0, x1), y0, y1, fill, text in boxes:
        fig.add_shape(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, fillcolor=fill, line=dict(color=GREY))
        fig.add_annotation(
            x=(x0 + x1) / 2, y=(y0 + y1) / 2, text=escape_label(text), showarrow=False, font=dict(size=13, color=DARK)
        )
    # The repeated blocks: dotted frames, the part's name above the frame's left corner, N× beside it.
    for (x0, x1), y1, n, name, side in (
        (enc, 6.2, n_encoder_layers, labels["encoder"], "left"),
        (dec, 8.0, n_decoder_layers, labels["decoder"], "right"),
    ):
        fig.add_shape(
            type="rect",
            x0=x0 - 0.25,
            y0=2.4,
            x1=x1 + 0.25,
            y1=y1,
            line=dict(color=DARK, width=2, dash="dot"),
            fillcolor=TRANSPARENT,
        )
        fig.add_annotation(
            x=x0 - 0.25,
            y=y1 + 0.05,
            text=f"<b>{escape_label(name)}</b>",
            showarrow=False,
            xanchor="left",
            yanchor="bottom",
            font=dict(size=15, color=DARK),
        )
        fig.add_annotation(
            x=x0 - 0.35 if side == "left" else x1 + 0.35,
            y=(2.4 + y1) / 2,
            xanchor="right" if side == "left" else "left",
            showarrow=False,
            text=f"<b>{escape_label(labels['layers'].format(n=n))}</b>",
            font=dict(size=16, color=DARK),
        )
    arrows = [
        (col, ya, yb)
        for col, spans in (
            (enc, ((1.0, 1.3), (1.9, 2.7), (3.5, 3.7), (4.1, 4.5), (5.3, 5.5))),
            (
                dec,
                (
                    (1.0, 1.3),
                    (1.9, 2.7),
                    (3.5, 3.7),
                    (4.1, 4.5),
                    (5.3, 5.5),
                    (5.9, 6.3),
                    (7.1, 7.3),
                    (7.7, 8.6),
                    (9.1, 9.4),
                    (9.9, 10.2),
                ),
            ),
        )
        for ya, yb in spans
    ]
    for (x0, x1), ya, yb in arrows:
        xm = (x0 + x1) / 2
        fig.add_annotation(arrow((xm, ya), (xm, yb), GREY))
    # The encoder's output feeds every decoder layer's cross-attention (as keys and values).
    fig.add_annotation(arrow((enc[1] + 0.25, 6.2), (dec[0], 4.9), BLUE, size=1.4, width=2))
    memory = "<br>".join(escape_label(line) for line in labels["memory"].split("\n"))
    fig.add_annotation(
        x=(enc[1] + dec[0]) / 2 + 0.2, y=4.6, text=memory, showarrow=False, font=dict(size=12, color=BLUE)
    )
    fig.update_xaxes(range=[-0.6, 11.4], visible=False)
    fig.update_yaxes(range=[0.2, 11.6], visible=False)
    fig.update_layout(height=640, margin=dict(l=0, r=0, t=10, b=0), **LOOK, showlegend=False, dragmode=False)
    return fig
