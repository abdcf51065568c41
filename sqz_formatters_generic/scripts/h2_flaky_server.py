"""A flaky local order service for the held-out Python log (capture_kinds.sh heldout-h2):
127.0.0.1:18805 only; every 4th /orders/ request answers 503, /orders/13 always 500."""

import http.server


class Handler(http.server.BaseHTTPRequestHandler):
    n = 0

    def do_GET(self):
        Handler.n += 1
        if self.path.startswith("/orders/") and Handler.n % 4 == 0:
            self.send_error(503, "busy")
            return
        if self.path == "/orders/13":
            self.send_error(500, "db error")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"ok": true}')

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", 18805), Handler).serve_forever()
