"""The load client without browsers (tests/load/): a short class on a real server, and the same class
through two replicas behind nginx. The full measurement is `python -m tests.load` (docs/performance.md)."""

from __future__ import annotations

import shutil

import pytest

from tests.app_harness import model_dir, translator
from tests.load.classroom import class_sentences, run_class
from tests.load.student import Student, link, run
from tests.server import MODEL_DIR_ENV, StreamlitServer

pytestmark = pytest.mark.slow  # each test starts its own server(s)

LINK = link("", text="The animal didn't cross the street because it was too tired.", dir="en2zh")


def _expected(pairs):
    model = translator()
    return [(text, (model.translate(text, d).output_text or "∅").strip()) for text, d in pairs]


@pytest.fixture(scope="module")
def server():
    with StreamlitServer(env={MODEL_DIR_ENV: str(model_dir())}) as running:
        running.wait_healthy()
        yield running


@pytest.mark.timeout(600)
def test_a_class_at_once_sees_no_error_and_each_its_own_translation(server):
    pairs = class_sentences(4)  # two English, two Chinese
    result = run_class(server.base_url, [server.pid], LINK, _expected(pairs), page="attention")
    assert result.errors() == []
    views = [s.view for _, s in result.steps]
    assert views.count("first view") == views.count("new sentence") == 4
    assert views.count("page attention") == 4 and sum(v.startswith("control ") for v in views) == 4
    assert result.peak_rss > 0 and result.cpu_seconds > 0
    row = {r["view"]: r for r in result.summary()}
    assert row["new sentence"]["n"] == 4 and row["new sentence"]["p95_s"] >= row["new sentence"]["p50_s"] > 0


@pytest.mark.timeout(300)
def test_the_checks_catch_a_wrong_translation_an_exception_and_a_missing_page(server):
    async def lesson():
        async with Student(server.base_url) as student:
            student.check(await student.open(LINK))
            wrong = student.check(await student.type_sentence("I like tea."), "I like tea.", "我喜欢咖啡。")
            other = student.check(await student.type_sentence("I like tea."), "I like coffee.")
            missing = await student.go_to("no_such_page")
            return student, wrong, other, missing

    student, wrong, other, missing = run(lesson())
    assert any("translation" in e for e in wrong.errors)
    assert any("link's text" in e for e in other.errors)
    assert missing.errors == ["no page at /no_such_page"]
    assert student.translation() == (translator().translate("I like tea.", "en2zh").output_text or "∅").strip()
    # An exception element in a run is an error: the View reads Streamlit's own Exception message.
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    from tests.load.protocol import View

    msg = ForwardMsg()
    msg.delta.new_element.exception.type = "ValueError"
    msg.delta.new_element.exception.message = "boom"
    msg.metadata.delta_path.extend([0, 3])
    view = View()
    view.feed(msg, msg.ByteSize())
    assert view.errors() == ["ValueError: boom"]


@pytest.mark.timeout(600)
@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed (tests/run_all.sh installs it)")
def test_two_replicas_behind_nginx_share_a_class_and_keep_each_browser_on_its_replica():
    import urllib.request

    from tests.load.replicas import Replicas

    with Replicas(2, model_dir=str(model_dir())) as replicas:
        # Sticky: a browser's page request sets the cookie; its websocket, sent with it, reaches the same replica.
        with urllib.request.urlopen(replicas.base_url + "/") as response:
            cookie = response.headers["Set-Cookie"].split(";", 1)[0]
            first = response.headers["X-Replica"]

        async def same_browser():
            async with Student(replicas.base_url, headers={"Cookie": cookie}) as student:
                step = student.check(await student.open(LINK))
                return student.replica, step

        replica, step = run(same_browser())
        assert step.errors == [] and replica == first
        pairs = class_sentences(12, skip=2)
        result = run_class(replicas.base_url, replicas.pids, LINK, _expected(pairs), page="tokens")
        assert result.errors() == []
        # 12 browsers with random keys: all on one replica has probability 2 / 2**12.
        assert len(result.replicas) == 2 and sum(result.replicas.values()) == 12, (
            f"sessions per replica {result.replicas}\n{replicas.nginx_logs()}"
        )
