"""The Flask app behind capture_service_logs.sh: served by gunicorn (behind nginx) and by the Flask
dev server. Real routes that answer 200, 404, 500 (an uncaught ZeroDivisionError, and a chained
ConnectionRefusedError from a connect to a port nobody listens on) and a slow one."""

from __future__ import annotations

import os
import socket
import time

from flask import Flask, abort, jsonify

app = Flask("shop")
DEAD_PORT = int(os.environ.get("SVC_DEAD_PORT", "18839"))


@app.get("/health")
def health():
    return "ok"


@app.get("/api/items/<int:item>")
def item(item: int):
    if item > 20:
        abort(404)
    return jsonify(id=item, price=item * 3)


@app.get("/api/slow")
def slow():
    time.sleep(0.25)
    return jsonify(done=True)


@app.get("/api/report")
def report():
    totals = [3, 0]
    return jsonify(ratio=totals[0] / totals[1])


def _fetch_stock() -> bytes:
    with socket.create_connection(("127.0.0.1", DEAD_PORT), timeout=1) as s:
        return s.recv(10)


@app.get("/api/stock")
def stock():
    try:
        _fetch_stock()
    except OSError as exc:
        raise RuntimeError("stock service unavailable") from exc
    return "unreachable"
