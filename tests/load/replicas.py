"""Several app servers behind nginx on one machine: `python -m tests.load.replicas [--replicas 2] [--port 8080]`.

Streamlit keeps a session's state in the process that opened it, so replicas need sticky sessions: the first
request of a browser gets a random key in a cookie (`lab_replica`), nginx hashes the key to a replica, and
every later request of that browser (the page, the websocket, a download) carries the cookie and reaches the
same replica. Open-source nginx has no sticky-cookie directive; a hash on the cookie does the same.
`ip_hash` would be simpler but sends a whole school behind one NAT address to one replica.

Each replica runs one PyTorch thread by default and its share of the cores' script runs (two replicas on two
cores: one run at a time each, the rest queued in arrival order). nginx's own files go
to a scratch directory; the launcher waits for every replica's /_stcore/health before it starts nginx, and
stops everything on Ctrl+C or when its own process is told to stop. `--print-config` prints the nginx
configuration for the given ports without starting anything (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from tests.server import StreamlitServer, free_port, health  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(port: int, replica_ports: list[int], scratch: str, address: str = "127.0.0.1") -> str:
    """An nginx configuration: `port` on `address` in front of the replicas on `replica_ports`."""
    upstreams = "\n".join(f"        server 127.0.0.1:{p} max_fails=2 fail_timeout=10s;" for p in replica_ports)
    return f"""# Attention Lab: {len(replica_ports)} replicas behind nginx, sticky by cookie (tests/load/replicas.py).
worker_processes 1;
pid {scratch}/nginx.pid;
error_log {scratch}/error.log warn;
daemon off;

events {{
    worker_connections 4096;
}}

http {{
    # Which replica answered each request, and every replica tried before it (a retry names two).
    log_format replicas '$remote_addr [$time_local] "$request" $status upstream $upstream_addr '
                        '$upstream_status $upstream_connect_time key $replica_key';
    access_log {scratch}/access.log replicas;
    client_body_temp_path {scratch}/body;
    proxy_temp_path {scratch}/proxy;
    fastcgi_temp_path {scratch}/fastcgi;
    uwsgi_temp_path {scratch}/uwsgi;
    scgi_temp_path {scratch}/scgi;

    # A browser's replica key: its cookie, or a new random one on its first request.
    map $cookie_lab_replica $replica_key {{
        ""      $request_id;
        default $cookie_lab_replica;
    }}
    # Websockets: pass the upgrade on, keep ordinary requests' connections plain.
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ""      close;
    }}

    # A plain hash of random keys splits a class evenly; `consistent` (ketama) kept fewer keys in place
    # when a replica leaves, but split 60 students about 37 : 63 over two replicas.
    upstream attention_lab {{
        hash $replica_key;
{upstreams}
    }}

    server {{
        listen {address}:{port};

        location / {{
            proxy_pass http://attention_lab;
            proxy_http_version 1.1;
            proxy_set_header Host $host;  # Streamlit checks a websocket's Origin against its Host
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 1d;  # a student's websocket stays open for the whole lesson
            proxy_buffering off;
            add_header Set-Cookie "lab_replica=$replica_key; Path=/; HttpOnly; SameSite=Lax" always;
            add_header X-Replica $upstream_addr always;  # which replica answered (the load client counts them)
        }}

        # A health check for the balancer in front of this machine, answered by a replica.
        location = /_stcore/health {{
            proxy_pass http://attention_lab;
        }}
    }}
}}
"""


class Replicas:
    """`n` app servers and nginx in front of them on `port`; use as a context manager."""

    def __init__(self, n: int = 2, port: int | None = None, threads: int = 1, model_dir: str | None = None):
        self.n, self.port, self.threads, self.model_dir = n, port or free_port(), threads, model_dir
        self.servers: list[StreamlitServer] = []
        self.nginx: subprocess.Popen | None = None
        self.scratch = tempfile.mkdtemp(prefix="attention-lab-nginx-")
        self.base_url = f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> Replicas:
        # The machine's cores shared out: each replica runs one script at a time per core it is given
        # (pages/parts/gate.py), so two replicas on two cores run one each.
        slots = max(1, (os.cpu_count() or 1) // self.n)
        env = {"OMP_NUM_THREADS": str(self.threads), "ATTENTION_LAB_RUN_SLOTS": str(slots)}
        if self.model_dir:
            env["ATTENTION_LAB_MODEL_DIR"] = self.model_dir
        scratch = Path(self.scratch)
        self.servers = [StreamlitServer(env=env, log_path=scratch / f"replica-{i}.log").start() for i in range(self.n)]
        for server in self.servers:
            server.wait_healthy(timeout)
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (scratch / name).mkdir(exist_ok=True)
        config = scratch / "nginx.conf"
        config.write_text(nginx_config(self.port, [s.port for s in self.servers], self.scratch), encoding="utf-8")
        self.nginx = subprocess.Popen(
            [NGINX, "-c", str(config), "-p", self.scratch, "-e", str(scratch / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=open(scratch / "nginx.out", "wb"),  # noqa: SIM115 (lives as long as nginx)
            start_new_session=True,
        )
        deadline = time.perf_counter() + timeout
        while not health(self.base_url, timeout=1.0):
            if self.nginx.poll() is not None:
                raise RuntimeError(f"nginx exited: {(scratch / 'nginx.out').read_text()}")
            if time.perf_counter() > deadline:
                raise TimeoutError("nginx did not answer /_stcore/health")
            time.sleep(0.1)
        return self

    def nginx_logs(self) -> str:
        """The last 40 lines of nginx's error and access logs: why a request went where it did."""
        parts = []
        for name in ("error.log", "access.log"):
            path = Path(self.scratch) / name
            text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else "(none)"
            parts.append(f"--- nginx {name}\n" + "\n".join(text.splitlines()[-40:]))
        return "\n".join(parts)

    @property
    def pids(self) -> list[int]:
        return [s.pid for s in self.servers]

    def stop(self) -> None:
        if self.nginx and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
        for server in self.servers:
            server.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self) -> Replicas:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--port", type=int, default=8080, help="nginx's port (the address students open)")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads per replica")
    parser.add_argument("--model-dir", default=os.environ.get("ATTENTION_LAB_MODEL_DIR"))
    parser.add_argument("--print-config", action="store_true", help="print nginx's configuration and exit")
    args = parser.parse_args(argv)
    if args.print_config:
        ports = [8501 + i for i in range(args.replicas)]
        print(nginx_config(args.port, ports, "/var/lib/attention-lab/nginx", address="0.0.0.0"))
        return 0
    replicas = Replicas(args.replicas, args.port, args.threads, args.model_dir)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        replicas.start()
        print(
            f"{args.replicas} replicas (ports {', '.join(str(s.port) for s in replicas.servers)}, PIDs "
            f"{','.join(map(str, replicas.pids))}) behind nginx at {replicas.base_url}; Ctrl+C stops them",
            flush=True,
        )
        while all(s.healthy() for s in replicas.servers) and replicas.nginx.poll() is None:
            time.sleep(2)
        print("a replica or nginx stopped; stopping the rest", flush=True)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        replicas.stop()


if __name__ == "__main__":
    raise SystemExit(main())
