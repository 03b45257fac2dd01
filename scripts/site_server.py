"""Serve the built book as a static host publishes it: under a sub-path, gzip, 404 page.

    python scripts/site_server.py                 # http://127.0.0.1:8000/dcglab/
    python scripts/site_server.py --port 8001 --prefix /book/ --site _build/html

GitHub Pages serves a project site under ``/<repository>/``, compresses text files with
gzip when the browser accepts it, and answers a missing URL with the site's
``404.html`` (status 404). This server does the same on 127.0.0.1, so that the
Lighthouse benchmark (benchmarks/lighthouse.py) and the publishing tests
(tests/test_publish.py) see the site as its readers will. The prefix is the path of
``html.baseurl`` in ``_config.yml`` (:func:`prefix_from_config`).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.server
import mimetypes
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
#: Types a static host compresses (GitHub Pages compresses these, not images or fonts).
COMPRESSED = ("text/", "application/javascript", "application/json", "image/svg+xml")


def prefix_from_config(config: Path = ROOT / "_config.yml") -> str:
    """The path part of the book's public URL (``html.baseurl``), e.g. ``/dcglab/``."""
    url = (yaml.safe_load(config.read_text()).get("html") or {}).get("baseurl") or "/"
    path = urlsplit(url).path or "/"
    return path if path.endswith("/") else path + "/"


def handler(site: Path, prefix: str) -> type[http.server.BaseHTTPRequestHandler]:
    """A request handler serving ``site`` at ``prefix`` (gzip, 404.html for misses)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _file(self) -> Path | None:
            path = unquote(urlsplit(self.path).path)
            if path + "/" == prefix:
                return None  # the folder without its slash: redirect (do_GET)
            if not path.startswith(prefix):
                return None
            target = (site / path[len(prefix) :]).resolve()
            if target.is_dir():
                target = target / "index.html"
            if site.resolve() not in target.parents or not target.is_file():
                return None
            return target

        def _send(self, status: int, body: bytes, ctype: str, head: bool) -> None:
            accepts = "gzip" in (self.headers.get("Accept-Encoding") or "")
            zipped = accepts and ctype.startswith(COMPRESSED)
            if zipped:
                body = gzip.compress(body, compresslevel=6, mtime=0)
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "max-age=600")
            if zipped:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def _answer(self, head: bool) -> None:
            if unquote(urlsplit(self.path).path) + "/" == prefix:
                self.send_response(301)
                self.send_header("Location", prefix)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            target = self._file()
            if target is None:
                missing = site / "404.html"
                body = missing.read_bytes() if missing.is_file() else b"404 Not Found"
                self._send(404, body, "text/html; charset=utf-8", head)
                return
            ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
            if ctype.startswith("text/") or ctype == "application/javascript":
                ctype += "; charset=utf-8"
            self._send(200, target.read_bytes(), ctype, head)

        def do_GET(self) -> None:  # noqa: N802 - the base class's name
            self._answer(head=False)

        def do_HEAD(self) -> None:  # noqa: N802 - the base class's name
            self._answer(head=True)

    return Handler


@contextlib.contextmanager
def serve(site: Path = SITE, prefix: str | None = None, port: int = 0) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 under ``prefix``; yields the book's URL (ends in ``/``)."""
    prefix = prefix or prefix_from_config()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler(Path(site), prefix))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (_build/html)")
    parser.add_argument("--prefix", default=None, help="sub-path (default: html.baseurl's path)")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    with serve(args.site, args.prefix, args.port) as url:
        print(f"serving {args.site} at {url} (Ctrl+C stops)")
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
