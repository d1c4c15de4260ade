"""The single-player bot's runtime: numpy only.

A bot file (``.npz``) holds two multilayer perceptrons, the **offence policy** (used when the team to act
had the ball at the snap) and the **defence policy**, as weight and bias arrays, plus metadata that pins
the observation it expects (``gridiron_env.core.observe``, the ``features`` form). The game feeds it the
documented encoder's features and the legal-action mask; the bot never picks an illegal action.

File layout (a zip of ``.npy`` arrays, the one table :data:`FIELDS` below)::

    format            str   "gridiron-bot-v1"
    features_size     int   length of the observation vector
    num_actions       int   size of the action space
    activation        str   "tanh" or "relu"
    offence_layers    int   number of linear layers of the offence net; likewise defence_layers
    offence_w{i}, offence_b{i}   float [in, out] and [out] for layer i (the last one gives the logits)
    defence_w{i}, defence_b{i}
    on_offence_index  int   index of the "on_offence" feature that selects the net

Loading never unpickles and never trusts a size: the file is read whole (at most ``MAX_FILE_BYTES``), the
zip directory is checked (each member's declared size at most ``MAX_MEMBER_BYTES``) before anything is
decompressed, each ``.npy`` header is checked against :data:`FIELDS` (dtype kind, rank, size) before its
data is read, then the values (ranges, finiteness) and the nets' shapes. Anything else raises
:class:`BotFileError` naming the file and the problem.
"""

from __future__ import annotations

import io
import math
import os
import re
import stat
import warnings
import zipfile
from dataclasses import dataclass

import numpy as np

FORMAT = "gridiron-bot-v1"
# Difficulty levels of the single-player bot: its sampling temperature (0 = always its best action). A bot
# file stores its own (``level_temperatures``, set by ``train.levels`` from the bot's own win rates against
# the panel, strictly increasing from easy to hard); these are the levels of a file that stores none.
LEVELS = {"easy": 2.5, "medium": 2.0, "hard": 0.3}
# The level the bot plays unless told otherwise (evaluations, `gridiron-play`): a little sampling plays
# better than the plain best action and never loops on free handoffs.
DEFAULT_LEVEL = "hard"
MASKED_LOGIT = -1e8
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def mlp_forward(layers, activation: str, x: np.ndarray) -> np.ndarray:
    """A dense net over a batch of rows: ``layers`` (W [in, out], b [out]) with ``activation`` between them.

    Each row's product with W is its own matrix product (a stacked ``matmul`` of 1-row matrices), never one
    product over the batch: BLAS picks its float32 kernel, and so its rounding, by the matrix's shape, so a
    batched product would give a game's logits last-bit differences with the other games in its batch,
    and now and then a different move. Per row, a game's logits depend on its own features alone."""
    act = ACTIVATIONS[activation]
    with np.errstate(over="ignore", invalid="ignore"):  # a wild net's inf/nan is handled by the caller
        for i, (w, b) in enumerate(layers):
            x = np.matmul(x[:, None, :], w)[:, 0] + b
            if i < len(layers) - 1:
                x = act(x)
    return x


# A damaged net's +-inf / nan logits become this (finite, so the legal choice and sampling stay defined).
_LOGIT_CAP = np.float32(1e30)

# Bot files are read whole into memory: refuse anything far beyond a real bot (the shipped one is 1.5 MB,
# its biggest array 0.3 MB) before reading or decompressing it.
MAX_FILE_BYTES = 256 << 20
MAX_MEMBER_BYTES = 64 << 20  # one array, uncompressed (a 4096 x 4096 float32 layer)
MAX_TOTAL_BYTES = 256 << 20  # all arrays, uncompressed
MAX_LAYERS = 32
MAX_SIZE = 1 << 20  # features, actions
_MAX_TEXT = 64  # characters of a text field


class BotFileError(ValueError):
    """A bot file that is missing, corrupt, or does not fit this game's observation or actions."""


@dataclass(frozen=True)
class Field:
    """One kind of array a bot file holds: the keys it covers (a regular expression), the numpy dtype kinds
    and the rank it must have (``shape``: the exact length of each dimension, None for any), and the
    allowed values (``low``..``high`` for a number, every element of a float array; ``choices`` for a
    text; a float array must be finite). ``required``: every file holds it (layer arrays are required per
    layer, by ``{net}_layers``). An optional field that is not a layer is kept in ``Bot.metadata``."""

    key: str
    kinds: str  # "U" text, "iu" integer, "f" float
    ndim: int
    what: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    required: bool = True
    shape: tuple[int | None, ...] | None = None

    def matches(self, key: str) -> bool:
        return re.fullmatch(self.key, key) is not None


_LAYER = r"(offence|defence)_{}(0|[1-9][0-9]?)"
# The one table of what a bot file may hold. A later field (e.g. per-level temperatures) is one more row,
# ``required=False`` so that older files still load, e.g. ``Field("level_temperatures", "f", 1, "...",
# low=0.0, high=100.0, required=False, shape=(3,))``; the loader checks dtype, shape and range from here.
FIELDS: tuple[Field, ...] = (
    Field("format", "U", 0, "the format name", choices=(FORMAT,)),
    Field("features_size", "iu", 0, "the observation length", low=1, high=MAX_SIZE),
    Field("num_actions", "iu", 0, "the number of actions", low=1, high=MAX_SIZE),
    Field("activation", "U", 0, "the hidden layers' activation", choices=tuple(ACTIVATIONS)),
    Field("on_offence_index", "iu", 0, "the index of the on_offence feature", low=0, high=MAX_SIZE - 1),
    Field("offence_layers", "iu", 0, "the offence net's number of layers", low=1, high=MAX_LAYERS),
    Field("defence_layers", "iu", 0, "the defence net's number of layers", low=1, high=MAX_LAYERS),
    Field("level_temperatures", "f", 1, "the sampling temperatures of the easy, medium and hard levels",
          low=0.0, high=100.0, shape=(len(LEVELS),), required=False),
    Field("level_win_rates", "f", 1, "each level's win rate against the panel when its temperature was set",
          low=0.0, high=1.0, shape=(len(LEVELS),), required=False),
    Field(_LAYER.format("w"), "f", 2, "a layer's weights", required=False),
    Field(_LAYER.format("b"), "f", 1, "a layer's biases", required=False),
)
_KIND_NAMES = {"U": "text", "S": "bytes", "i": "integer", "u": "integer", "f": "float", "b": "bool",
               "c": "complex", "O": "object", "M": "datetime", "m": "timedelta", "V": "structured"}


def field_for(key: str) -> Field | None:
    """The row of :data:`FIELDS` that covers ``key``, or None."""
    return next((f for f in FIELDS if f.matches(key)), None)


def display_name(path) -> str:
    """A path as one printable line: control characters escaped, a very long path cut in the middle."""
    text = os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 160 else f"{text[:60]}...{text[-90:]}"


def short_reason(err: BaseException) -> str:
    """An exception from a parser as a short line of text."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def read_bot_file(path, limit: int = MAX_FILE_BYTES) -> tuple[bytes, str]:
    """The bytes of the regular file at ``path`` (at most ``limit``) and its display name; BotFileError
    for a missing, unreadable, empty or oversized file, a directory, or a path that cannot be a file."""
    try:
        fspath = os.fspath(path)
    except TypeError:
        raise BotFileError(f"a bot file path must be a str or path, got {type(path).__name__}") from None
    name = display_name(fspath)
    if ("\0" if isinstance(fspath, str) else b"\0") in fspath:
        raise BotFileError(f"no bot file at {name}: the path holds a NUL character")
    try:
        info = os.stat(fspath)
    except FileNotFoundError:
        raise BotFileError(f"no bot file at {name}") from None
    except (OSError, ValueError) as err:  # too long, not a directory on the way, a loop, no permission
        detail = err.strerror if isinstance(err, OSError) and err.strerror else short_reason(err)
        raise BotFileError(f"no bot file at {name}: {detail}") from None
    if stat.S_ISDIR(info.st_mode):
        raise BotFileError(f"{name} is a directory, not a bot file")
    if not stat.S_ISREG(info.st_mode):  # a pipe or device: reading could block or never end
        raise BotFileError(f"{name} is not a regular file")
    if info.st_size > limit:
        raise BotFileError(f"{name} is {info.st_size} bytes; a bot file is at most {limit}")
    try:
        with open(fspath, "rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise BotFileError(f"cannot read the bot file {name}: {err.strerror or short_reason(err)}") from None
    if not data:
        raise BotFileError(f"{name} is empty, not a bot file")
    if len(data) > limit:
        raise BotFileError(f"{name} is more than {limit} bytes; a bot file is at most {limit}")
    return data, name


def _npz_members(data: bytes, name: str) -> dict[str, bytes]:
    """The raw ``.npy`` bytes of each array of an ``.npz`` file, its directory checked first."""
    if data.startswith(b"\x93NUMPY"):
        raise BotFileError(f"{name} is a bare .npy array, not a .npz bot file (write bots with Bot.save)")
    if not data.startswith(b"PK"):
        raise BotFileError(f"{name} is not a readable .npz bot file: it is not a zip archive")
    # zipfile raises many types on damaged bytes (BadZipFile, zlib.error, EOFError, NotImplementedError,
    # RuntimeError, struct.error, UnicodeDecodeError, ...): every one means the same thing here.
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except Exception as err:  # noqa: BLE001 - see above
        raise BotFileError(f"{name} is not a readable .npz bot file: {short_reason(err)}") from None
    if len(infos) > 2 * 2 * MAX_LAYERS + len(FIELDS):
        raise BotFileError(f"{name} holds {len(infos)} arrays; a bot file holds at most "
                           f"{2 * 2 * MAX_LAYERS + len(FIELDS)}")
    keys, total = [], 0
    for info in infos:
        member = display_name(info.filename)
        key = info.filename[:-4] if info.filename.endswith(".npy") else None
        if key is None or field_for(key) is None:
            raise BotFileError(f"{name} holds {member!r}, which is not an array of a bot file")
        if key in keys:
            raise BotFileError(f"{name} holds the array {key!r} twice")
        if info.flag_bits & 0x1:
            raise BotFileError(f"{name}: the array {key!r} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise BotFileError(f"{name}: the array {key!r} uses compression method {info.compress_type}; "
                               "a bot file is stored or deflated")
        # The directory's sizes are the attacker's: refuse before decompressing a byte.
        if info.file_size > MAX_MEMBER_BYTES:
            raise BotFileError(f"{name}: the array {key!r} claims {info.file_size} bytes uncompressed; an array "
                               f"of a bot file is at most {MAX_MEMBER_BYTES}")
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise BotFileError(f"{name}: its arrays claim more than {MAX_TOTAL_BYTES} bytes uncompressed")
        keys.append(key)
    if "format" not in keys:
        raise BotFileError(f"{name} is not a {FORMAT} file: it lacks the array 'format'")
    members = {}
    for key, info in zip(keys, infos):
        try:
            with archive.open(info) as f:
                blob = f.read(MAX_MEMBER_BYTES + 1)  # zipfile stops at the declared size; guard it anyway
        except Exception as err:  # noqa: BLE001 - damaged data: see above
            raise BotFileError(f"{name} is not a readable .npz bot file: the array {key!r} is damaged "
                               f"({short_reason(err)})") from None
        if len(blob) > MAX_MEMBER_BYTES or len(blob) != info.file_size:
            raise BotFileError(f"{name}: the array {key!r} unpacks to {len(blob)} bytes, not the "
                               f"{info.file_size} its directory entry claims")
        members[key] = blob
    return members


def _read_array(blob: bytes, name: str, key: str, field: Field):
    """One ``.npy`` member as a value checked against its row of FIELDS: a Python int or str for an
    integer or text scalar, else an array (float32 for floats)."""
    where = f"{name}: the array {key!r} ({field.what})"
    fp = io.BytesIO(blob)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy warns on headers written by Python 2
            version = np.lib.format.read_magic(fp)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fp)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fp)
            else:
                raise ValueError(f"unsupported .npy version {version}")
    except Exception as err:  # noqa: BLE001 - numpy's header parser on hostile bytes: ValueError, TypeError, ...
        raise BotFileError(f"{where} has an unreadable .npy header: {short_reason(err)}") from None
    if dtype.hasobject or dtype.kind not in field.kinds or dtype.shape != () or dtype.names is not None:
        kind = _KIND_NAMES.get(dtype.kind, dtype.kind)
        wanted = " or ".join(sorted({_KIND_NAMES[k] for k in field.kinds}))
        raise BotFileError(f"{where} holds {kind} values ({dtype.str}); it must be {wanted}")
    if len(shape) != field.ndim or any(n < 1 for n in shape):
        raise BotFileError(f"{where} has shape {shape}; it must have {field.ndim} dimension"
                           f"{'' if field.ndim == 1 else 's'}" + (", each at least 1" if field.ndim else ""))
    if field.shape is not None and any(want is not None and n != want for n, want in zip(shape, field.shape)):
        wanted = tuple("any" if want is None else want for want in field.shape)
        raise BotFileError(f"{where} has shape {shape}; it must have shape {wanted}")
    if dtype.kind == "U" and dtype.itemsize > 4 * _MAX_TEXT:
        raise BotFileError(f"{where} is a text of {dtype.itemsize // 4} characters; at most {_MAX_TEXT}")
    size = math.prod(shape) * dtype.itemsize
    offset = fp.tell()
    if len(blob) - offset != size:
        raise BotFileError(f"{where} has {len(blob) - offset} bytes of data; its header {shape} {dtype.str} "
                           f"needs {size}")
    array = np.frombuffer(blob, dtype=dtype, count=math.prod(shape), offset=offset)
    array = array.reshape(shape, order="F" if fortran else "C")
    if dtype.kind == "f":
        with np.errstate(over="ignore", invalid="ignore"):
            array = array.astype(np.float32)  # a copy; a float64 weight beyond float32 becomes inf: refused
        if not np.isfinite(array).all():
            raise BotFileError(f"{where} holds non-finite values (nan or inf, or beyond float32)")
    else:
        array = array.astype(np.int64 if dtype.kind == "i" else dtype if dtype.kind == "U" else np.uint64)
    # Python ints or strs, compared exactly whatever the dtype; a float array's extremes
    values = [array.min().item(), array.max().item()] if dtype.kind == "f" else array.ravel().tolist()
    if field.choices is not None:
        wrong = [v for v in values if v not in field.choices]
        if wrong:
            raise BotFileError(f"{where} is {display_name(wrong[0])[:80]!r}; it must be "
                               + " or ".join(map(repr, field.choices)))
    low, high = min(values), max(values)
    if (field.low is not None and low < field.low) or (field.high is not None and high > field.high):
        shown = f"{low}" if array.ndim == 0 else f"from {low:g} to {high:g}"
        raise BotFileError(f"{where} is {shown}; it must be from {field.low} to {field.high}")
    return values[0] if array.ndim == 0 and dtype.kind != "f" else array


class Bot:
    """Two MLPs (offence, defence) over the features observation. Pure numpy."""

    def __init__(self, offence: list[tuple[np.ndarray, np.ndarray]], defence: list[tuple[np.ndarray, np.ndarray]],
                 activation: str, on_offence_index: int, features_size: int, num_actions: int,
                 metadata: dict | None = None):
        if activation not in ACTIVATIONS:
            raise BotFileError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
        if not 0 <= int(on_offence_index) < int(features_size):
            raise BotFileError(f"on_offence_index must be a feature index from 0 to {int(features_size) - 1}, "
                               f"got {on_offence_index}")
        for name, layers in (("offence", offence), ("defence", defence)):
            _check_layers(name, layers, features_size, num_actions)
        self.offence = [(w.astype(np.float32), b.astype(np.float32)) for w, b in offence]
        self.defence = [(w.astype(np.float32), b.astype(np.float32)) for w, b in defence]
        self.activation = activation
        self.on_offence_index = int(on_offence_index)
        self.features_size = int(features_size)
        self.num_actions = int(num_actions)
        # optional fields of the file (FIELDS rows with required=False that are not layers), saved back
        self.metadata = dict(metadata or {})

    # --- files -----------------------------------------------------------------------------------------

    def save(self, path) -> None:
        arrays = {
            "format": np.array(FORMAT),
            "features_size": np.array(self.features_size),
            "num_actions": np.array(self.num_actions),
            "activation": np.array(self.activation),
            "on_offence_index": np.array(self.on_offence_index),
        }
        for name, layers in (("offence", self.offence), ("defence", self.defence)):
            arrays[f"{name}_layers"] = np.array(len(layers))
            for i, (w, b) in enumerate(layers):
                arrays[f"{name}_w{i}"] = w
                arrays[f"{name}_b{i}"] = b
        for key, value in self.metadata.items():
            arrays[key] = np.asarray(value)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path, features_size: int | None = None, num_actions: int | None = None,
             on_offence_index: int | None = None) -> "Bot":
        """Load a ``.npz`` bot; raises BotFileError naming the file and what is wrong with it. Checks the
        file against the given (or this package's) observation size, action count and on_offence feature
        index (the package's index only when the sizes are the package's)."""
        data, name = read_bot_file(path)
        arrays = {}
        for key, blob in _npz_members(data, name).items():
            arrays[key] = _read_array(blob, name, key, field_for(key))
        for field in FIELDS:
            if field.required and field.key not in arrays:
                raise BotFileError(f"{name} lacks the array {field.key!r} ({field.what})")
        layers = {}
        for net in ("offence", "defence"):
            count = arrays[f"{net}_layers"]
            for i in range(count):
                for part in ("w", "b"):
                    if f"{net}_{part}{i}" not in arrays:
                        raise BotFileError(f"{name} lacks the array '{net}_{part}{i}' (its {net} net has "
                                           f"{count} layers)")
            extra = sorted(k for k in arrays if re.fullmatch(_LAYER.format("[wb]"), k) and k.startswith(net)
                           and int(re.sub(r"\D", "", k)) >= count)
            if extra:
                raise BotFileError(f"{name} holds {extra[0]!r} beyond its {net} net's {count} layers")
            layers[net] = [(arrays[f"{net}_w{i}"], arrays[f"{net}_b{i}"]) for i in range(count)]
        package_features, package_actions = _package_sizes()
        # A bot of an earlier observation layout (a prefix of the current one) is this game's bot too.
        expected_features = _layout_sizes() if features_size is None else (int(features_size),)
        expected_actions = package_actions if num_actions is None else int(num_actions)
        if arrays["features_size"] not in expected_features or arrays["num_actions"] != expected_actions:
            raise BotFileError(
                f"{name} expects {arrays['features_size']} features and {arrays['num_actions']} actions; this "
                f"game has {' or '.join(map(str, expected_features))} and {expected_actions}")
        if on_offence_index is None and (expected_features[-1], expected_actions) == (package_features,
                                                                                       package_actions):
            on_offence_index = _package_on_offence_index()
        if on_offence_index is not None and arrays["on_offence_index"] != on_offence_index:
            raise BotFileError(f"{name} selects its net by feature {arrays['on_offence_index']}; this game's "
                               f"on_offence feature is {on_offence_index}")
        metadata = {k: v for k, v in arrays.items() if not field_for(k).required
                    and not re.fullmatch(_LAYER.format("[wb]"), k)}
        try:
            return cls(layers["offence"], layers["defence"], arrays["activation"], arrays["on_offence_index"],
                       arrays["features_size"], arrays["num_actions"], metadata=metadata)
        except BotFileError as err:
            raise BotFileError(f"{name}: {err}") from None

    # --- difficulty levels -----------------------------------------------------------------------------

    @property
    def levels(self) -> dict[str, float]:
        """The bot's own difficulty levels (level name -> sampling temperature), as measured for it and
        stored in its file (``train.levels``); :data:`LEVELS` for a file that has none."""
        stored = self.metadata.get("level_temperatures")
        if stored is None:
            return dict(LEVELS)
        return {name: float(t) for name, t in zip(LEVELS, np.asarray(stored, dtype=np.float64))}

    def set_levels(self, temperatures, win_rates=None) -> None:
        """Store the levels' temperatures (easy, medium, hard) and, optionally, the win rates measured at
        them; saved with the bot. Raises ValueError for a temperature outside 0-100 or a rate outside 0-1."""
        temperatures = np.asarray(temperatures, dtype=np.float64)
        if temperatures.shape != (len(LEVELS),) or not np.all((temperatures >= 0) & (temperatures <= 100)):
            raise ValueError(f"level temperatures must be {len(LEVELS)} numbers from 0 to 100, got {temperatures}")
        self.metadata["level_temperatures"] = temperatures.astype(np.float32)
        if win_rates is not None:
            win_rates = np.asarray(win_rates, dtype=np.float64)
            if win_rates.shape != (len(LEVELS),) or not np.all((win_rates >= 0) & (win_rates <= 1)):
                raise ValueError(f"level win rates must be {len(LEVELS)} numbers from 0 to 1, got {win_rates}")
            self.metadata["level_win_rates"] = win_rates.astype(np.float32)

    # --- inference -------------------------------------------------------------------------------------

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw logits [batch, num_actions] (float32) of the net chosen by each row's on_offence feature."""
        x = np.atleast_2d(np.asarray(observation, dtype=np.float32))
        if x.shape[1] != self.features_size:
            sizes = _layout_sizes()
            if not (self.features_size in sizes and x.shape[1] in sizes and x.shape[1] > self.features_size):
                raise ValueError(f"observation must have {self.features_size} features, got {x.shape[1]}")
            x = x[:, :self.features_size]  # a later layout: this bot's layout is its prefix
        on_offence = x[:, self.on_offence_index] > 0.5
        out = np.empty((x.shape[0], self.num_actions), dtype=np.float32)
        if on_offence.any():
            out[on_offence] = mlp_forward(self.offence, self.activation, x[on_offence])
        if (~on_offence).any():
            out[~on_offence] = mlp_forward(self.defence, self.activation, x[~on_offence])
        return out

    def act(self, observation, action_mask, temperature: float = 0.0, rng: np.random.Generator | None = None,
            uniforms: np.ndarray | None = None):
        """A legal action per row: the best masked logit (temperature 0) or a sample at ``temperature``
        (from ``uniforms``, one float in [0, 1) per row, else from ``rng``)."""
        logits = self.logits(observation)
        if not np.isfinite(logits).all():  # only a damaged net: keep the choice among the legal actions
            logits = np.nan_to_num(logits, nan=-_LOGIT_CAP, posinf=_LOGIT_CAP, neginf=-_LOGIT_CAP)
        mask = np.atleast_2d(np.asarray(action_mask)).astype(bool)
        # Illegal actions get -inf rather than MASKED_LOGIT, so that even a legal logit below MASKED_LOGIT
        # beats them; for any real net both give the same choices, to the bit.
        masked = np.where(mask, logits, -np.inf)
        if not temperature > 0:
            return masked.argmax(axis=1)
        rng = rng or np.random.default_rng()
        with np.errstate(over="ignore", invalid="ignore"):
            z = masked / temperature
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z) * mask
            total = p.sum(axis=1, keepdims=True)
            wild = ~(np.isfinite(total[:, 0]) & (total[:, 0] > 0)) & mask.any(axis=1)
            if wild.any():  # huge logits over a small temperature overflow float32: shift first, in float64
                x = masked[wild].astype(np.float64)
                d = (x - x.max(axis=1, keepdims=True)) / temperature
                p[wild] = np.where(mask[wild], np.exp(d), 0.0)
                total[wild] = p[wild].sum(axis=1, keepdims=True)
            p /= total
        u = rng.random(p.shape[0]) if uniforms is None else np.asarray(uniforms, dtype=np.float64)
        return (p.cumsum(axis=1) > u[:, None]).argmax(axis=1)


def _check_layers(name, layers, features_size, num_actions):
    if not layers:
        raise BotFileError(f"the {name} net has no layers")
    width = features_size
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0]:
            raise BotFileError(f"the {name} net's layer {i} has shapes {w.shape} and {b.shape}; expected "
                               f"({width}, n) and (n,)")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise BotFileError(f"the {name} net's layer {i} holds non-finite weights")
        width = w.shape[1]
    if width != num_actions:
        raise BotFileError(f"the {name} net gives {width} logits; the game has {num_actions} actions")


def _layout_sizes() -> tuple[int, ...]:
    """Feature lengths of every observation layout, oldest first (each a prefix of the next)."""
    from gridiron_env.core.observe import FEATURE_LAYOUT_SIZES

    return FEATURE_LAYOUT_SIZES


def _package_sizes():
    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURES_SIZE

    return FEATURES_SIZE, NUM_ACTIONS


def _package_on_offence_index() -> int:
    from gridiron_env.core.observe import FEATURE_LAYOUT

    return FEATURE_LAYOUT["on_offence"][0].start


class BotAgent:
    """A bot (numpy ``Bot``) as an agent of ``agents.base``: it sees only the documented observation
    (``features``, from the acting team's side) and the legal mask. ``temperature`` 0 plays the best
    action; above 0 it samples from per-game streams (so a game's play does not depend on the batch)."""

    _SALT = 0xB07B07

    def __init__(self, bot: "Bot", name: str = "bot", temperature: float = 0.0):
        from agents.base import GameStreams

        self.bot = bot
        self.name = name
        self.temperature = float(temperature)
        self.streams = GameStreams()

    @classmethod
    def load(cls, path, level: str | None = None, **kwargs) -> "BotAgent":
        """The bot file ``path`` as an agent; ``level`` (a name of :data:`LEVELS`) plays at that level's
        temperature as the file stores it (instead of ``temperature``)."""
        bot = Bot.load(path)
        if level is not None:
            if level not in LEVELS:
                raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
            kwargs["temperature"] = bot.levels[level]
        return cls(bot, **kwargs)

    def reset(self, seeds) -> None:
        self.streams.reset(seeds, self._SALT)

    def act(self, state, config=None, games=None) -> np.ndarray:
        from gridiron_env.core.observe import observe

        games = np.arange(state.batch_size) if games is None else np.asarray(games)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        live = games[state.to_act[games] >= 0]
        if live.size:
            self.streams.ensure(state.batch_size, self._SALT)
            sub = state.take(live)
            uniforms = self.streams.uniform(live, state.steps[live]) if self.temperature > 0 else None
            actions[live] = self.bot.act(observe(sub, None, config), sub.legal, self.temperature, uniforms=uniforms)
        return actions
