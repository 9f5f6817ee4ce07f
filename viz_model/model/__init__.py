"""The model and what it records: config, tokenizer, positional encoding, the Transformer, the trace of one
translation, beam search and its record, checkpoints, and the `Translator` facade the pages call.

Nothing here knows about lessons, figures, training or pages; no plotly, no Streamlit.
"""
