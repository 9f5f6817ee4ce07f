"""Streamlit's wire protocol, as far as a student's session needs it: the BackMsg that asks for a script run
(what the browser sends when a page opens, a widget changes or a page link is clicked) and a View of what
one run sent back (its elements, widgets by key, the query string the app wrote, the pages, an exception).

The messages are the protobufs that ship in the streamlit package, so this follows the installed version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

STREAM_PATH = "/_stcore/stream"
SUBPROTOCOL = "streamlit"
MAIN, SIDEBAR = 0, 1  # the first index of a delta path: the app's two root containers
FINISHED = ForwardMsg.ScriptFinishedStatus
ENDS_A_RUN = {FINISHED.FINISHED_SUCCESSFULLY, FINISHED.FINISHED_WITH_COMPILE_ERROR}
# The element kinds whose value a student can change, and the WidgetState field each one's value goes in.
VALUE_FIELDS = {
    "text_input": "string_value",
    "text_area": "string_value",
    "radio": "string_value",
    "selectbox": "string_value",
    "checkbox": "bool_value",
    "slider": "double_array_value",
    "select_slider": "string_array_value",
    "button_group": "string_array_value",
    "number_input": "double_value",
}


def widget_state(widget_id: str, kind: str, value: Any) -> WidgetState:
    """The state a browser reports for widget `widget_id` of element kind `kind` holding `value`."""
    state = WidgetState(id=widget_id)
    if kind == "button":
        state.trigger_value = True
        return state
    name = VALUE_FIELDS[kind]
    if name in ("double_array_value", "string_array_value"):
        getattr(state, name).data.extend(value if isinstance(value, (list, tuple)) else [value])
    else:
        setattr(state, name, value)
    return state


def rerun_script(
    query_string: str = "",
    widgets: list[WidgetState] | None = None,
    page_script_hash: str = "",
    page_name: str = "",
) -> bytes:
    """A request to run the script: the page (by hash, or by its URL path for a link that names only the
    path), the query string of the address bar and every widget value the browser holds."""
    msg = BackMsg()
    state = msg.rerun_script
    state.query_string = query_string
    state.page_script_hash = page_script_hash
    state.page_name = page_name
    state.widget_states.widgets.extend(widgets or [])
    return msg.SerializeToString()


def read(data: bytes) -> ForwardMsg:
    msg = ForwardMsg()
    msg.ParseFromString(data)
    return msg


@dataclass
class Widget:
    id: str
    key: str | None  # the user's key (the part of a generated id after the hash), None if it has none
    kind: str  # the Element oneof name: "radio", "selectbox", ...
    proto: Any  # the element's own message (Radio, Selectbox, ...)
    where: int  # MAIN or SIDEBAR

    @property
    def options(self) -> list[str]:
        """The options as the wire names them (a button group's options are messages with a content)."""
        if self.kind == "button_group":
            return [option.content for option in self.proto.options]
        return list(getattr(self.proto, "options", []))

    def current(self) -> str | None:
        """The option the server set or defaulted to, when it says."""
        if self.kind == "button_group":
            chosen = list(self.proto.default)
            return self.options[chosen[0]] if chosen else None
        return self.proto.raw_value if self.proto.HasField("raw_value") else None


def user_key(widget_id: str) -> str | None:
    """The user's key of a generated widget id (`$$ID-<hash>-<key>`), None when it was given none."""
    parts = widget_id.split("-", 2)
    if len(parts) == 3 and parts[0] == "$$ID" and parts[2] != "None":
        return parts[2]
    return None


@dataclass
class View:
    """What one script run sent: read from its ForwardMsgs, in order; a new run (new_session) starts over,
    since a run that ended early for a rerun is replaced by the next one."""

    elements: list[tuple[tuple[int, ...], str, Any]] = field(default_factory=list)  # (delta path, kind, proto)
    status: int | None = None  # the ScriptFinishedStatus that ended it; None while it runs
    query_string: str | None = None  # the last query string the app wrote, if it wrote one
    pages: list[Any] = field(default_factory=list)  # AppPage messages of the navigation
    current_page_hash: str = ""
    messages: int = 0
    bytes: int = 0

    def feed(self, msg: ForwardMsg, size: int) -> None:
        kind = msg.WhichOneof("type")
        self.messages += 1
        self.bytes += size
        if kind == "new_session":
            self.elements.clear()
            self.status = None
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            element_kind = element.WhichOneof("type")
            self.elements.append((tuple(msg.metadata.delta_path), element_kind, getattr(element, element_kind)))
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "navigation":
            self.pages = list(msg.navigation.app_pages)
            self.current_page_hash = msg.navigation.page_script_hash
        elif kind == "script_finished":
            self.status = msg.script_finished

    @property
    def finished(self) -> bool:
        return self.status in ENDS_A_RUN

    def exceptions(self) -> list[str]:
        return [f"{e.type}: {e.message}" for _, kind, e in self.elements if kind == "exception"]

    def errors(self) -> list[str]:
        """Exceptions, and error alerts (st.error), which a page shows only when something went wrong."""
        alerts = [a.body for _, kind, a in self.elements if kind == "alert" and a.format == a.ERROR]
        return self.exceptions() + alerts

    def widgets(self) -> list[Widget]:
        found = []
        for path, kind, proto in self.elements:
            widget_id = getattr(proto, "id", "")
            if (kind in VALUE_FIELDS or kind == "button") and widget_id:
                found.append(Widget(widget_id, user_key(widget_id), kind, proto, path[0]))
        return found

    def widget(self, key: str) -> Widget | None:
        return next((w for w in self.widgets() if w.key == key), None)

    def texts(self, where: int) -> list[str]:
        """st.text bodies in one root container, in order."""
        return [e.body for path, kind, e in self.elements if kind == "text" and path[0] == where]

    def page_hash(self, url_pathname: str) -> str | None:
        return next((p.page_script_hash for p in self.pages if p.url_pathname == url_pathname), None)
