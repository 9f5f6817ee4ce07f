"""One student's session over Streamlit's websocket, as a browser tab would hold it: open a link, type a
sentence, click a page link, change a control. Each action is one script run, timed from the request to the
run's end, and checked: no exception, the sentence kept in the link, the sidebar's translation equal to `expected`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlsplit

from websockets.asyncio.client import connect

from tests.load.protocol import SIDEBAR, STREAM_PATH, SUBPROTOCOL, View, Widget, read, rerun_script, widget_state

SENTENCE_KEY = "text"  # the sidebar's sentence box (pages/parts/sidebar.py)


@dataclass
class Step:
    view: str  # "first view", "new sentence", "page <path>", "control <key>"
    seconds: float
    bytes: int
    errors: list[str] = field(default_factory=list)
    replica: str | None = None  # the server that answered, when a balancer names it


class Student:
    """A session on `base_url` (http://host:port). Use as `async with Student(...) as s`."""

    def __init__(self, base_url: str, timeout: float = 300.0, headers: dict | None = None):
        self.base_url, self.timeout = base_url.rstrip("/"), timeout
        self.headers = headers or {}  # e.g. the balancer's cookie a browser would send
        self.steps: list[Step] = []
        self.view = View()
        self.widgets: dict[str, tuple[str, object]] = {}  # widget id → (kind, value) the browser would hold
        self.query_string = ""
        self.page_hash = ""
        self.replica: str | None = None  # the server that answered, when a balancer names it
        self._socket = None
        self._inbox: asyncio.Queue = asyncio.Queue()
        self._reader: asyncio.Task | None = None

    async def __aenter__(self) -> Student:
        host = urlsplit(self.base_url).netloc
        url = self.base_url.replace("http", "ws", 1) + STREAM_PATH
        self._socket = await connect(
            url,
            origin=f"http://{host}",
            subprotocols=[SUBPROTOCOL],
            additional_headers=self.headers,
            max_size=None,  # a page with several charts sends messages over websockets' 1 MiB default
            proxy=None,  # loopback only, whatever the environment says
            open_timeout=self.timeout,
            ping_interval=None,  # Streamlit's own heartbeat is the client's business; a run can hold the loop
        )
        self.replica = self._socket.response.headers.get("X-Replica")  # set by tests/load/replicas.py's nginx
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc) -> None:
        if self._reader:
            self._reader.cancel()
        if self._socket:
            await self._socket.close()

    async def _read(self) -> None:
        async for data in self._socket:
            await self._inbox.put(data)
        await self._inbox.put(None)

    # ------------------------------------------------------------------------------------------ actions

    async def open(self, link: str) -> Step:
        """Open a link (path and query string) in a new tab: the browser's first run request."""
        parts = urlsplit(link)
        self.query_string = parts.query
        return await self._run("first view", page_name=parts.path.strip("/"))

    async def type_sentence(self, text: str) -> Step:
        """Type into the sentence box and press Enter."""
        box = self.view.widget(SENTENCE_KEY)
        if box is None:
            return self._fail("new sentence", "no sentence box on the page")
        self.widgets[box.id] = (box.kind, text)
        return await self._run("new sentence")

    async def go_to(self, url_pathname: str) -> Step:
        """Click a page link in the sidebar's navigation."""
        page_hash = self.view.page_hash(url_pathname)
        if page_hash is None:
            return self._fail(f"page {url_pathname or 'home'}", f"no page at /{url_pathname}")
        self.page_hash = page_hash
        return await self._run(f"page {url_pathname or 'home'}", page_hash=page_hash)

    async def change(self, widget: Widget, value: object) -> Step:
        self.widgets[widget.id] = (widget.kind, value)
        return await self._run(f"control {widget.key or widget.kind}")

    async def change_a_control(self) -> Step | None:
        """Pick another option of the page's first choice control (radio, select box, then button group;
        not the sidebar's)."""
        for kinds in (("radio", "selectbox"), ("button_group",)):
            for widget in self.view.widgets():
                if widget.where != SIDEBAR and widget.kind in kinds and len(widget.options) > 1:
                    others = [o for o in widget.options if o != widget.current()]
                    return await self.change(widget, others[-1])
        return None

    # ------------------------------------------------------------------------------------------ checks

    def translation(self) -> str | None:
        texts = self.view.texts(SIDEBAR)
        return texts[0].strip() if texts else None

    def check(self, step: Step, sentence: str | None = None, translation: str | None = None) -> Step:
        """Add to the step's errors what a student would see as wrong."""
        step.errors += self.view.errors()
        if sentence is not None:
            if self.view.widget(SENTENCE_KEY) is None:
                step.errors.append("no sentence box")
            in_link = parse_qs(self.query_string).get(SENTENCE_KEY)
            if in_link != [sentence]:
                step.errors.append(f"link's text is {in_link!r}, typed {sentence!r}")
        if translation is not None and self.translation() != translation:
            step.errors.append(f"translation {self.translation()!r}, expected {translation!r}")
        return step

    # ------------------------------------------------------------------------------------------ one run

    def _fail(self, name: str, error: str) -> Step:
        step = Step(name, 0.0, 0, [error])
        self.steps.append(step)
        return step

    async def _run(self, name: str, page_hash: str = "", page_name: str = "") -> Step:
        present = {w.id for w in self.view.widgets()}
        states = [
            widget_state(wid, kind, value)
            for wid, (kind, value) in self.widgets.items()
            if wid in present or not present
        ]
        request = rerun_script(self.query_string, states, page_hash or self.page_hash, page_name)
        self.view = View()
        started = time.perf_counter()
        await self._socket.send(request)
        try:
            await asyncio.wait_for(self._until_finished(), self.timeout)
        except (TimeoutError, ConnectionError) as err:
            step = Step(name, time.perf_counter() - started, self.view.bytes, [f"{type(err).__name__}: {err}"])
            self.steps.append(step)
            return step
        step = Step(name, time.perf_counter() - started, self.view.bytes, replica=self.replica)
        if self.view.query_string is not None:
            self.query_string = self.view.query_string
        self.page_hash = self.view.current_page_hash or self.page_hash
        # Buttons are triggers: pressed for one run only, as in the browser.
        self.widgets = {k: v for k, v in self.widgets.items() if v[0] != "button"}
        self.steps.append(step)
        return step

    async def _until_finished(self) -> None:
        while not self.view.finished:
            data = await self._inbox.get()
            if data is None:
                raise ConnectionError("the server closed the session")
            self.view.feed(read(data), len(data))


def run(coroutine):
    """Run a coroutine to the end on an event loop of its own thread, and return its result: the caller's
    thread may already run a loop (Playwright's sync API in the browser tests' process does)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def link(path: str = "", **params: str) -> str:
    return f"/{path}" + (f"?{urlencode(params)}" if params else "")
