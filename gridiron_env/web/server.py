"""The web server: a Starlette app (run by uvicorn) that serves the page and plays games over a websocket.

``gridiron-serve [--host H] [--port P] [--records DIR | --no-records] [--bot PATH]`` (also
``python -m gridiron_env.web``) prints its URL and serves until Ctrl-C. ``GET /`` is the page (plain
HTML, CSS and JavaScript from ``gridiron_env/web/static``, no build step); ``/ws`` is the websocket the
page plays through (the messages: :mod:`gridiron_env.web.protocol`).

The engine and the agents run here, each request of a connection in a worker thread (the event loop keeps
serving the other connections); a connection owns its games, so one page cannot reach another's. Every
game saves its record (config, seed, actions; :mod:`gridiron_env.web.records`) to the records directory
after each request. A refused message gets an ``error`` reply and leaves every game as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import socket
import sys
import threading
import traceback
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gridiron_env.config import GameConfig

from . import protocol as P
from . import records as R
from .sessions import AgentFactory, GameError, GameSession, ReplaySession, Settings, SHIPPED_BOT
from .views import public_tables

STATIC = Path(__file__).parent / "static"
MAX_GAMES_PER_CONNECTION = 16
MAX_GAMES = 256
DEFAULT_RECORDS = Path.home() / ".gridiron" / "records"
WS_MAX_BYTES = 16 * 1024 * 1024
__all__ = ["Hub", "create_app", "main", "serve_in_thread"]


class Hub:
    """What the connections share: the agent factory, the records directory and the count of games."""

    def __init__(self, records_dir: Path | None = None, bot_path: Path | None = SHIPPED_BOT):
        self.factory = AgentFactory(bot_path)
        self.records_dir = Path(records_dir) if records_dir is not None else None
        self._lock = threading.Lock()
        self.games = 0

    def reserve(self) -> None:
        with self._lock:
            if self.games >= MAX_GAMES:
                raise GameError(f"the server already runs {MAX_GAMES} games; close one first")
            self.games += 1

    def release(self, n: int = 1) -> None:
        with self._lock:
            self.games = max(0, self.games - n)


class Connection:
    """One page's websocket: its games and the handling of its messages."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.games: dict[str, GameSession | ReplaySession] = {}

    def close(self) -> None:
        self.hub.release(len(self.games))
        self.games.clear()

    def _game(self, game_id: str, kind=None, request: str = ""):
        game = self.games.get(game_id)
        if game is None:
            raise GameError(f"unknown game {game_id!r} (not one of this page's games)")
        if kind is not None and not isinstance(game, kind):
            what = "a replay" if isinstance(game, ReplaySession) else "a live game"
            needs = "a replay" if kind is ReplaySession else "a live game"
            raise GameError(f"game {game_id!r} is {what}; '{request}' needs {needs}")
        return game

    def _new_id(self) -> str:
        if len(self.games) >= MAX_GAMES_PER_CONNECTION:
            raise GameError(f"a page may have {MAX_GAMES_PER_CONNECTION} games at once; close one first")
        self.hub.reserve()
        return secrets.token_urlsafe(9)

    def handle(self, msg: dict) -> dict:
        """Answer one checked message (runs in a worker thread)."""
        kind = msg["type"]
        if kind == "hello":
            limits = {"target_score": [1, 99], "kick_modes": ["dice", "paper"], "max_message_chars":
                      P.MAX_MESSAGE_CHARS, "max_advance": P.MAX_ADVANCE}
            return {"type": "welcome", "opponents": self.hub.factory.specs(), "tables": public_tables(limits),
                    "defaults": {"target_score": GameConfig().target_score, "specials": True, "kick_mode": "dice"}}
        if kind == "new_game":
            s = msg["settings"]
            team = {"one": 0, "two": 1}.get(s["team"])
            if team is None:
                team = secrets.randbelow(2)
            settings = Settings(mode=s["mode"], team=team, opponent=s["opponent"], agents=s["agents"],
                                target_score=s["target_score"], specials=s["specials"], kick_mode=s["kick_mode"],
                                seed=s["seed"])
            game_id = self._new_id()
            try:
                session = GameSession(game_id, settings, self.hub.factory, self.hub.records_dir)
                with session.lock:
                    frames = [session.frame()]
                    if not session.person_to_act() and session.mode != "watch":
                        frames = session.run_agents(P.MAX_ADVANCE) or frames
                        frames[-1] = session.frame(caption=frames[-1]["caption"])
                    session.save()
            except BaseException:
                self.hub.release()
                raise
            self.games[game_id] = session
            return {"type": "started", **session.summary(), "frames": frames}
        if kind == "load_record":
            game_id = self._new_id()
            try:
                session = ReplaySession(game_id, msg["record"])
                first = session.seek(0)
            except BaseException:
                self.hub.release()
                raise
            self.games[game_id] = session
            return {"type": "replay", **session.summary(), "frame": first}
        game_id = msg["game"]
        if kind == "close":
            self._game(game_id)
            del self.games[game_id]
            self.hub.release()
            return {"type": "closed", "game": game_id}
        if kind == "seek":
            session = self._game(game_id, ReplaySession, kind)
            with session.lock:
                return {"type": "frame", "game": game_id, **session.seek(msg["index"])}
        session = self._game(game_id, GameSession, kind)
        with session.lock:
            if kind == "action":
                frames = session.play(msg["action"], msg["turn"])
            elif kind == "advance":
                frames = session.advance(msg["steps"])
            elif kind == "stop":
                frames = [session.stop()]
            elif kind == "record":
                return {"type": "record", "game": game_id, "record": session.public_record()}
            else:  # (every type is handled above; protocol.FIELDS lists them)
                raise GameError(f"unhandled message type {kind!r}")
            return {"type": "frames", "game": game_id, "frames": frames,
                    "more": not session.over and not session.person_to_act()}


def _error(text: str, request=None, msg_id=None, game=None) -> dict:
    return {"type": "error", "error": text, "request": request, "id": msg_id, "game": game}


async def answer(conn: Connection, text) -> dict:
    """The reply to one raw message (a str, or bytes for a binary frame); never raises for bad input."""
    try:
        msg = P.parse_message(text)
    except P.MessageError as err:
        return _error(str(err), err.request, err.msg_id)
    try:
        reply = await run_in_threadpool(conn.handle, msg)
    except (GameError, R.RecordError) as err:
        return _error(str(err), msg["type"], msg["id"], msg.get("game"))
    except Exception as err:  # a bug of ours: say so, keep serving the other games
        traceback.print_exc(file=sys.stderr)
        return _error(f"internal error ({type(err).__name__}); the request was not completed",
                      msg["type"], msg["id"], msg.get("game"))
    if msg["id"] is not None:
        reply["id"] = msg["id"]
    return reply


async def websocket_endpoint(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    conn = Connection(hub)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            raw = text if text is not None else message.get("bytes", b"")
            reply = await answer(conn, raw)
            await websocket.send_text(json.dumps(reply, separators=(",", ":")))
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()


async def index(request):
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def health(request):
    return JSONResponse({"ok": True, "games": request.app.state.hub.games})


def create_app(records_dir: Path | None = None, bot_path: Path | None = SHIPPED_BOT) -> Starlette:
    """The ASGI app. ``records_dir``: where every game's record is saved (None: not saved)."""
    app = Starlette(routes=[
        Route("/", index),
        Route("/health", health),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.hub = Hub(records_dir, bot_path)
    return app


# --------------------------------------------------------------------------------------------- running

def _uvicorn_server(app, log_level: str = "warning"):
    import uvicorn

    # The app answers every frame up to WS_MAX_BYTES (one too long for the protocol gets a clear error
    # reply); a bigger one is cut by the websocket layer itself (close code 1009, "message too big").
    config = uvicorn.Config(app, log_level=log_level, ws_max_size=WS_MAX_BYTES, lifespan="off")
    return uvicorn.Server(config)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{port}/"


class ServerThread:
    """A server on a free port in a background thread (for tests): ``url``, ``stop()``."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        self.app = app
        self.sock = _bind(host, port)
        self.url = url_of(self.sock, host)
        self.server = _uvicorn_server(app)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])),
                                       daemon=True)
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                break
            threading.Event().wait(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def serve_in_thread(records_dir=None, host: str = "127.0.0.1", port: int = 0) -> ServerThread:
    return ServerThread(create_app(records_dir), host, port)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gridiron-serve",
                                description="Play Gridiron in a browser: serve the game page on a local port.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--records", default=str(DEFAULT_RECORDS), help=f"directory for game records (default {DEFAULT_RECORDS})")
    p.add_argument("--no-records", action="store_true", help="do not save game records")
    p.add_argument("--bot", default=str(SHIPPED_BOT), help="the bot file the bot levels play (default: the shipped bot)")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"gridiron-serve: error: --port must be 0-65535, got {args.port}", file=sys.stderr)
        return 2
    records = None if args.no_records else Path(args.records).expanduser()
    try:
        sock = _bind(args.host, args.port)
    except OSError as err:
        print(f"gridiron-serve: error: cannot listen on {args.host}:{args.port}: {err.strerror or err}",
              file=sys.stderr)
        return 2
    app = create_app(records, Path(args.bot).expanduser())
    print(f"Gridiron is served at {url_of(sock, args.host)}  (Ctrl-C stops it)", flush=True)
    if records is not None:
        print(f"Game records are saved in {records}", flush=True)
    try:
        _uvicorn_server(app, log_level="warning").run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
