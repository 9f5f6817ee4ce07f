"""Building and measuring the shipped model: `python -m viz_model.training.train` trains it from the corpus,
`…training.evaluate` measures it, `…training.bench` times it, `…training.translate` is the command-line
translator. Training reads the corpus and the model layer; nothing here is imported by the pages.
"""
