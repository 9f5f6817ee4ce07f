"""How the app is served: `streamlit run app.py` finds the ASGI app `app.py` defines (`st.App`) and serves the
pages through it, with one addition, `KnownBackend`.

Opened at a sub-page URL (`/tokens?…`), Streamlit's front end does not know where the server's endpoints
are: it tries the page's own path first (`/tokens/_stcore/health`, `/tokens/_stcore/host-config`), which
answer 404 and put two errors in the browser's console on every sub-page load, then `/_stcore/…`. The
front end reads the server's address from `window.__streamlit.BACKEND_BASE_URL` when the page sets it, and
then asks there first and only. `KnownBackend` sets it in every HTML page the server sends: the app's root,
under `server.baseUrlPath`, on whatever host the browser reached (a proxy's included)."""

from __future__ import annotations

from streamlit import config

# The front end reads its settings from window.__streamlit once, as its script loads: this runs before it.
SCRIPT = (
    "<script>window.__streamlit = Object.assign(window.__streamlit || {}, "
    '{BACKEND_BASE_URL: window.location.origin + "/%s"});</script>'
)


def backend_script(base_url_path: str) -> bytes:
    path = base_url_path.strip("/")
    return (SCRIPT % (path + "/" if path else "")).encode("utf-8")


class KnownBackend:
    """ASGI middleware: the backend's address written into each HTML page, before the front end's script."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "GET" or "/_stcore/" in scope.get("path", ""):
            await self.app(scope, receive, send)
            return
        # The page uncompressed (it is 2 kB), so its head can be edited; other files are passed on as they come.
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]}
        start: dict | None = None
        body: list[bytes] = []

        async def edit(message):
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict((k.lower(), v) for k, v in message.get("headers", []))
                if not headers.get(b"content-type", b"").startswith(b"text/html"):
                    start = None
                    await send(message)
                    return
                start = message
                return
            if start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = b"".join(body)
            script = backend_script(config.get_option("server.baseUrlPath") or "")
            page = page.replace(b"<head>", b"<head>" + script, 1)
            headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
            headers.append((b"content-length", str(len(page)).encode("ascii")))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": page, "more_body": False})

        await self.app(scope, receive, edit)
