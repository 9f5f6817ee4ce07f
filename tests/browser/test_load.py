"""The short load test: a few sessions at the same moment on the suite's server, each with its own
sentences, on a few pages. No session may see an error or another session's sentence, and each shows the
translation viz_model gives for its own sentence. The full version is tests/load_test.py (run by hand)."""

from __future__ import annotations

import pytest

from tests.browser.harness import health, report
from tests.browser.load import run_load

SESSIONS, SENTENCES, PAGES = 3, 2, ["attention", "beam_search"]  # the two heaviest pages


@pytest.mark.timeout(900)
def test_concurrent_sessions_see_only_their_own_sentence(chromium, app_server, translator):
    result = run_load(chromium, app_server, translator, SESSIONS, SENTENCES, PAGES, rounds=1, log=report)
    report(
        f"short load test: {SESSIONS} sessions × {SENTENCES} sentences × {len(PAGES)} pages, "
        f"{result.checks} views checked in {result.seconds:.0f} s, server peak RSS "
        f"{result.peak_rss / 2**20:.0f} MiB"
    )
    assert result.errors == [], "\n".join(result.errors[:30])
    assert result.checks == SESSIONS * SENTENCES * len(PAGES)
    assert health(app_server.base_url)
