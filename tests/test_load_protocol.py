"""The load client's messages (tests/load/protocol.py) against Streamlit's own: the widget states it sends
equal the ones Streamlit's testing framework (AppTest) builds for the same widgets and values, and the
server-side session state reads them back as those values."""

from __future__ import annotations

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.testing.v1 import AppTest

from tests.load.protocol import View, read, rerun_script, user_key, widget_state


def test_rerun_request_round_trips_through_backmsg():
    states = [widget_state("$$ID-abc-text", "text_input", "你好"), widget_state("$$ID-def-go", "button", None)]
    msg = BackMsg()
    msg.ParseFromString(rerun_script("text=a&dir=en2zh", states, "hash1", "attention"))
    assert msg.WhichOneof("type") == "rerun_script"
    state = msg.rerun_script
    assert (state.query_string, state.page_script_hash, state.page_name) == ("text=a&dir=en2zh", "hash1", "attention")
    assert [w.id for w in state.widget_states.widgets] == ["$$ID-abc-text", "$$ID-def-go"]
    assert state.widget_states.widgets[0].string_value == "你好"
    assert state.widget_states.widgets[1].trigger_value is True


def _widgets_script():
    import streamlit as st

    st.radio("r", ["a", "b", "c"], key="r")
    st.selectbox("s", ["x", "y"], key="s")
    st.text_input("t", key="t")
    st.checkbox("c", key="c")
    st.slider("n", 0, 10, 3, key="n")
    st.button("go", key="go")


@pytest.mark.apptest
def test_widget_states_equal_streamlits_own():
    at = AppTest.from_function(_widgets_script).run()
    cases = [
        (at.radio(key="r").set_value("c"), "radio", "c"),
        (at.selectbox(key="s").set_value("y"), "selectbox", "y"),
        (at.text_input(key="t").input("hello"), "text_input", "hello"),
        (at.checkbox(key="c").check(), "checkbox", True),
        (at.slider(key="n").set_value(7), "slider", 7.0),
        (at.button(key="go").click(), "button", None),
    ]
    for widget, kind, value in cases:
        theirs = widget._widget_state
        ours = widget_state(widget.id, kind, value)
        assert ours == theirs, (kind, ours, theirs)
        assert user_key(widget.id) == widget.key
    # The server reads our states back as the values: AppTest runs the script with them.
    from streamlit.proto.WidgetStates_pb2 import WidgetStates

    states = WidgetStates()
    states.widgets.extend(widget_state(w.id, k, v) for w, k, v in cases[:5])
    at2 = AppTest.from_function(_widgets_script).run()
    at2._tree  # noqa: B018 (the first run's tree, whose widget ids the states name)
    at2._run(states)
    assert at2.radio(key="r").value == "c" and at2.selectbox(key="s").value == "y"
    assert at2.text_input(key="t").value == "hello" and at2.checkbox(key="c").value is True
    assert at2.slider(key="n").value == 7


def test_view_reads_a_run_and_starts_over_on_a_new_run():
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    def delta(path, kind, **fields):
        msg = ForwardMsg()
        msg.metadata.delta_path.extend(path)
        element = getattr(msg.delta.new_element, kind)
        for name, value in fields.items():
            setattr(element, name, value)
        return msg

    view = View()
    msgs = [ForwardMsg(), delta([1, 2], "text", body="old")]
    msgs[0].new_session.SetInParent()
    rerun = ForwardMsg()
    rerun.script_finished = ForwardMsg.FINISHED_EARLY_FOR_RERUN
    again = ForwardMsg()
    again.new_session.SetInParent()
    info = ForwardMsg()
    info.page_info_changed.query_string = "text=x"
    done = ForwardMsg()
    done.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    msgs += [rerun, again, delta([1, 0], "text", body="猫"), delta([0, 1], "text", body="main"), info]
    msgs += [delta([1, 1], "text_input", id="$$ID-9f-text", label="Sentence"), done]
    for msg in msgs:
        assert not view.finished
        data = msg.SerializeToString()
        view.feed(read(data), len(data))
    assert view.finished
    assert view.texts(1) == ["猫"] and view.texts(0) == ["main"]
    assert view.query_string == "text=x"
    assert view.widget("text").id == "$$ID-9f-text" and view.widget("text").where == 1
