"""Attention Lab's computations. `viz_model.model`: the Transformer, its tokenizer, the trace of a translation,
beam search, checkpoints; `viz_model.lessons`: what the pages teach, plain data in and out;
`viz_model.figures`: the plotly builders; `viz_model.corpus`: the sentence pairs; `viz_model.training`:
training, evaluation, benchmarks and the command-line translator. No module here imports Streamlit.
"""
