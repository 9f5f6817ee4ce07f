"""`streamlit run app.py` on a free loopback port, in its own process group, stopped by its PID whatever
happened: used by the browser tests (tests/browser/harness.py), the benchmarks, the load client
(tests/load/) and the replicas launcher, so all start the server the same way.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
MODEL_DIR_ENV = "ATTENTION_LAB_MODEL_DIR"


def free_port() -> int:
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def health(base_url: str, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=timeout) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except OSError:
        return False


class StreamlitServer:
    """`streamlit run <script>` on a free localhost port, in its own process group; `stop()` ends it."""

    def __init__(
        self,
        script: Path = APP,
        env: dict[str, str] | None = None,
        port: int | None = None,
        log_path: Path | None = None,
    ):
        self.script, self.port = Path(script), port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.log_path = log_path
        self.process: subprocess.Popen | None = None
        self.started_at = self.started_wall = 0.0

    def start(self) -> StreamlitServer:
        command = [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(self.script),
            "--server.headless",
            "true",
            "--server.port",
            str(self.port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
            "--server.runOnSave",
            "false",
        ]
        log = open(self.log_path, "wb") if self.log_path else subprocess.DEVNULL
        self.started_at, self.started_wall = time.perf_counter(), time.time()
        self.process = subprocess.Popen(
            command, cwd=self.script.parent, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        return self

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_healthy(self, timeout: float = 60.0) -> float:
        """Seconds from start() until /_stcore/health answers "ok"."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {self.process.returncode}; log: {self.log_path}")
            if health(self.base_url, timeout=1.0):
                return time.perf_counter() - self.started_at
            time.sleep(0.1)
        raise TimeoutError(f"streamlit did not answer /_stcore/health within {timeout:.0f} s")

    def healthy(self) -> bool:
        return self.process is not None and self.process.poll() is None and health(self.base_url)

    def stop(self) -> None:
        """Terminate the server by its own PID (and its process group), kill it if it does not exit."""
        if self.process is None or self.process.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
            try:
                self.process.send_signal(sig)
                os.killpg(self.process.pid, sig)  # start_new_session: the group id is the server's PID
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def rss_bytes(self) -> int:
        """Resident memory of the server process and all its children."""
        import psutil

        try:
            proc = psutil.Process(self.pid)
            procs = [proc] + proc.children(recursive=True)
        except psutil.NoSuchProcess:
            return 0
        total = 0
        for p in procs:
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
