"""The messages the page may send, checked by hand before anything acts on them.

Every message is one JSON object in a text frame of at most ``MAX_MESSAGE_CHARS`` characters, with a
``type`` and exactly the fields that type takes (an optional ``id``, echoed in the reply, is allowed on
every one). Anything else (not text, too long, not JSON, not an object, an unknown type or field, a value
of the wrong type or out of range) raises :class:`MessageError` with a message saying what was wrong;
nothing has been done at that point.

==============  =================================================  ===========================================
type            fields                                             reply
==============  =================================================  ===========================================
``hello``       -                                                  ``welcome``: opponents, formations, limits
``new_game``    ``settings`` (see :func:`check_settings`)          ``started``: the game's id and frames
``action``      ``game``, ``action`` (id 0-290), ``turn`` (steps)  ``frames``
``advance``     ``game``, ``steps`` (1-``MAX_ADVANCE``)            ``frames`` (agents' actions)
``stop``        ``game``                                           ``frames`` (the game stopped)
``record``      ``game``                                           ``record`` (once the game is over)
``load_record`` ``record`` (a record object)                       ``replay``: its id, length, first frame
``seek``        ``game`` (a replay), ``index`` (0..length)         ``frame``
``close``       ``game``                                           ``closed``
==============  =================================================  ===========================================

Errors are answered with ``{"type": "error", "error": "...", "request": <type or null>, "id": ...}``.
"""

from __future__ import annotations

import json
import re

from gridiron_env.core.actions import NUM_ACTIONS

MAX_MESSAGE_CHARS = 262_144  # a record of ~40,000 actions; far beyond any real message otherwise
MAX_ADVANCE = 300
MAX_ID_CHARS = 40
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_SPEC = re.compile(r"^[a-z0-9_:]{1,40}$")
MAX_SEED = 2**64 - 1

FIELDS = {
    "hello": {},
    "new_game": {"settings": "settings"},
    "action": {"game": "game", "action": "action", "turn": "turn"},
    "advance": {"game": "game", "steps": "steps"},
    "stop": {"game": "game"},
    "record": {"game": "game"},
    "load_record": {"record": "record"},
    "seek": {"game": "game", "index": "index"},
    "close": {"game": "game"},
}
SETTINGS_FIELDS = ("mode", "team", "opponent", "agents", "target_score", "specials", "kick_mode", "seed")


class MessageError(ValueError):
    """A message the server refuses; ``request`` is its type when that much could be read."""

    def __init__(self, message: str, request: str | None = None, msg_id=None):
        super().__init__(message)
        self.request = request
        self.msg_id = msg_id


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def parse_message(text) -> dict:
    """The checked message in ``text`` (a str from a text frame)."""
    if not isinstance(text, str):
        raise MessageError("messages are JSON text frames, not binary")
    if len(text) > MAX_MESSAGE_CHARS:
        raise MessageError(f"a message is at most {MAX_MESSAGE_CHARS} characters, got {len(text)}")
    try:
        obj = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise MessageError("the message is nested too deeply") from None
    except ValueError as err:
        raise MessageError(f"the message is not valid JSON: {err}") from None
    if not isinstance(obj, dict):
        raise MessageError(f"a message is a JSON object with a 'type', got {type(obj).__name__}")
    msg_id = obj.get("id")
    if msg_id is not None and not ((_is_int(msg_id) and 0 <= msg_id < 2**53)
                                   or (isinstance(msg_id, str) and len(msg_id) <= MAX_ID_CHARS)):
        raise MessageError(f"'id' must be an int 0..2**53-1 or a text of at most {MAX_ID_CHARS} characters")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise MessageError(f"unknown message type {_short(kind)}; known: {', '.join(FIELDS)}", None, msg_id)
    expected = FIELDS[kind]
    extra = sorted(k for k in obj if k not in expected and k not in ("type", "id"))
    if extra:
        raise MessageError(f"'{kind}' takes the fields {sorted(expected) or 'none'}, not {extra}"[:300], kind, msg_id)
    out = {"type": kind, "id": msg_id}
    for name, check in expected.items():
        if name not in obj:
            raise MessageError(f"'{kind}' needs the field '{name}'", kind, msg_id)
        try:
            out[name] = _CHECKS[check](obj[name])
        except MessageError as err:
            raise MessageError(f"'{kind}': {err}", kind, msg_id) from None
    return out


def _game(v):
    if not isinstance(v, str) or not _GAME_ID.match(v):
        raise MessageError(f"'game' must be a game id (1-32 letters, digits, _ or -), got {_short(v)}")
    return v


def _action(v):
    if not _is_int(v) or not 0 <= v < NUM_ACTIONS:
        raise MessageError(f"'action' must be an action id 0..{NUM_ACTIONS - 1}, got {_short(v)}")
    return v


def _turn(v):
    if not _is_int(v) or not 0 <= v <= 10**7:
        raise MessageError(f"'turn' must be the step count the action was chosen at (an int >= 0), got {_short(v)}")
    return v


def _steps(v):
    if not _is_int(v) or not 1 <= v <= MAX_ADVANCE:
        raise MessageError(f"'steps' must be an int from 1 to {MAX_ADVANCE}, got {_short(v)}")
    return v


def _index(v):
    if not _is_int(v) or not 0 <= v <= 10**7:
        raise MessageError(f"'index' must be an int >= 0 (a position in the replay), got {_short(v)}")
    return v


def _record(v):
    if not isinstance(v, dict):
        raise MessageError(f"'record' must be a record object, got {type(v).__name__}")
    return v  # checked field by field (and replayed) by records.check_record


def _spec(v, name):
    if not isinstance(v, str) or not _SPEC.match(v):
        raise MessageError(f"'{name}' must be an agent spec such as 'bot:hard', 'heuristic' or "
                           f"'panel:power_run', got {_short(v)}")
    return v


def check_settings(v) -> dict:
    """A new game's settings: ``mode`` single / hotseat / watch (default single); ``team`` one / two /
    random (single); ``opponent`` an agent spec (single); ``agents`` two specs (watch); ``target_score``
    1-99; ``specials`` true / false; ``kick_mode`` dice / paper; ``seed`` an int 0..2**64-1 or null. Every
    field may be left out (the defaults: single, team one, bot:hard, 21, specials, dice, a random seed)."""
    if not isinstance(v, dict):
        raise MessageError(f"'settings' must be an object, got {type(v).__name__}")
    extra = sorted(str(k) for k in v if k not in SETTINGS_FIELDS)
    if extra:
        raise MessageError(f"unknown setting(s) {extra}; allowed: {list(SETTINGS_FIELDS)}"[:300])
    out = {}
    mode = v.get("mode", "single")
    if mode not in ("single", "hotseat", "watch"):
        raise MessageError(f"setting 'mode' must be single, hotseat or watch, got {_short(mode)}")
    out["mode"] = mode
    team = v.get("team", "one")
    if team not in ("one", "two", "random"):
        raise MessageError(f"setting 'team' must be one, two or random, got {_short(team)}")
    out["team"] = team
    out["opponent"] = _spec(v.get("opponent", "bot:hard"), "opponent")
    agents = v.get("agents", ["heuristic", "bot:hard"])
    if not isinstance(agents, list) or len(agents) != 2:
        raise MessageError(f"setting 'agents' must be two agent specs (team one's, team two's), got {_short(agents)}")
    out["agents"] = tuple(_spec(a, "agents") for a in agents)
    target = v.get("target_score", 21)
    if not _is_int(target) or not 1 <= target <= 99:
        raise MessageError(f"setting 'target_score' must be an int from 1 to 99, got {_short(target)}")
    out["target_score"] = target
    specials = v.get("specials", True)
    if not isinstance(specials, bool):
        raise MessageError(f"setting 'specials' must be true or false, got {_short(specials)}")
    out["specials"] = specials
    kick = v.get("kick_mode", "dice")
    if kick not in ("dice", "paper"):
        raise MessageError(f"setting 'kick_mode' must be dice or paper, got {_short(kick)}")
    out["kick_mode"] = kick
    seed = v.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise MessageError(f"setting 'seed' must be an int from 0 to 2**64 - 1 or null, got {_short(seed)}")
    out["seed"] = seed
    return out


_CHECKS = {"game": _game, "action": _action, "turn": _turn, "steps": _steps, "index": _index,
           "record": _record, "settings": check_settings}
