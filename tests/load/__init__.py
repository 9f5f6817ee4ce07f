"""A class of students without browsers: simulated sessions that speak Streamlit's own websocket protocol.

- protocol.py: the BackMsg a browser sends and what one script run sends back (ForwardMsgs read into a View);
- student.py: one student's session (open a link, type a sentence, switch pages, change a control), timed
  and checked;
- classroom.py: N students on one server with a start-time spread, the server's CPU and memory sampled,
  per-view latency figures; the CLI in __main__.py runs a series of such classes and writes a table and a plot.
"""
