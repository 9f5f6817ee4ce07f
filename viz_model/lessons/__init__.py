"""What the pages teach, one module per concept: plain data in (numpy arrays, a trace, a search record),
plain data out, so every number a page shows can be tested without Streamlit.

Lessons read the model layer (`viz_model.model`); they know nothing of figures, pages or the catalogue.
"""
