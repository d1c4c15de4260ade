"""Bot files are validated (``agents.bot.Bot.load``, ``train.export.OnnxBot``): every malformed file or
bad path raises BotFileError naming the file and the problem - never another exception, never a
MemoryError, never an unpickled object - and a file that loads gives a bot that only plays legal actions.
The command lines that take bot files answer a bad one with one line on stderr and exit status 2."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridiron_env as g
from agents import bot as bot_module
from agents.bot import FIELDS, FORMAT, MAX_MEMBER_BYTES, MAX_TOTAL_BYTES, Bot, BotFileError, Field
from gridiron_env.core.actions import NUM_ACTIONS
from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURES_SIZE, observe

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "gridiron_env" / "data" / "bot.npz"
ON_OFFENCE = FEATURE_LAYOUT["on_offence"][0].start
# BOT_FUZZ_EXAMPLES=2000 for a longer hunt (the default run stays quick)
FUZZ = settings(max_examples=int(os.environ.get("BOT_FUZZ_EXAMPLES", 60)), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------------------------------ helpers

def small_arrays(hidden=(6,), seed=0, activation="tanh") -> dict[str, np.ndarray]:
    """The arrays of a valid small bot for this package's game (random weights)."""
    rng = np.random.default_rng(seed)
    arrays = {"format": np.array(FORMAT), "features_size": np.array(FEATURES_SIZE),
              "num_actions": np.array(NUM_ACTIONS), "activation": np.array(activation),
              "on_offence_index": np.array(ON_OFFENCE)}
    widths = [FEATURES_SIZE, *hidden, NUM_ACTIONS]
    for net in ("offence", "defence"):
        arrays[f"{net}_layers"] = np.array(len(widths) - 1)
        for i in range(len(widths) - 1):
            arrays[f"{net}_w{i}"] = rng.normal(size=(widths[i], widths[i + 1])).astype(np.float32)
            arrays[f"{net}_b{i}"] = rng.normal(size=widths[i + 1]).astype(np.float32)
    return arrays


def write_npz(path: Path, arrays: dict, compressed=True) -> Path:
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return path


@pytest.fixture(scope="module")
def positions():
    """Observations and legal masks of real positions (random play: every phase, both teams to act)."""
    state = g.init(16, seed=3)
    rng = np.random.default_rng(3)
    obs, masks = [], []
    for t in range(120):
        state = g.step(state, (rng.random(state.legal.shape) * state.legal).argmax(1))
        if t % 6 == 0:
            live = np.flatnonzero(~(state.terminated | state.truncated))
            obs.append(observe(state.take(live)))
            masks.append(state.legal[live])
    obs, masks = np.concatenate(obs), np.concatenate(masks)
    assert 0 < (obs[:, ON_OFFENCE] > 0.5).mean() < 1  # both nets get asked
    return obs, masks


def assert_plays_legally(bot, positions):
    obs, masks = positions
    u = np.random.default_rng(0).random(len(obs))
    for temperature in (0.0, 1.0):
        actions = bot.act(obs, masks, temperature, uniforms=u)
        assert masks[np.arange(len(obs)), actions].all()


def refused(path, match=None, **kwargs) -> str:
    """Loading ``path`` raises BotFileError naming the file; returns the message."""
    with pytest.raises(BotFileError) as info:
        Bot.load(path, **kwargs)
    message = str(info.value)
    assert Path(os.fsdecode(path)).name in message, message
    assert "\n" not in message
    if match is not None:
        assert match in message, message
    return message


def rezip(source: bytes, edit=None, extra=()) -> bytes:
    """The zip ``source`` rewritten member by member; ``edit(info)`` may change each member's directory
    entry (name, declared sizes, method, flags) before the directory is written."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, zin.read(info), compress_type=info.compress_type)
        for name, data in extra:
            zout.writestr(name, data)
        if edit is not None:
            for info in zout.infolist():
                edit(info)
    return out.getvalue()


@pytest.fixture()
def valid(tmp_path) -> Path:
    return write_npz(tmp_path / "valid.npz", small_arrays())


# ------------------------------------------------------------------------------------------ valid files

def test_a_valid_small_bot_loads_and_plays_legally(valid, positions):
    bot = Bot.load(valid)
    assert (bot.features_size, bot.num_actions, bot.on_offence_index) == (FEATURES_SIZE, NUM_ACTIONS, ON_OFFENCE)
    assert_plays_legally(bot, positions)
    write_npz(valid.with_name("stored.npz"), small_arrays(), compressed=False)
    assert np.array_equal(Bot.load(valid.with_name("stored.npz")).logits(positions[0]), bot.logits(positions[0]))


def test_shipped_bot_loads_and_acts_exactly_as_its_arrays_say():
    """The shipped bot through the validating loader equals a plain reading of its arrays (numpy's own,
    allow_pickle=False) run by the pre-validation inference code, logits and actions to the bit."""
    bot = Bot.load(SHIPPED)
    with np.load(SHIPPED, allow_pickle=False) as data:
        raw = {k: data[k] for k in data.files}
    assert str(raw["format"]) == FORMAT
    rng = np.random.default_rng(7)
    obs = rng.random((400, int(raw["features_size"]))).astype(np.float32)
    obs[:, int(raw["on_offence_index"])] = rng.random(400) < 0.5
    masks = rng.random((400, int(raw["num_actions"]))) < 0.2
    masks[np.arange(400), rng.integers(0, masks.shape[1], 400)] = True

    def forward(net, x):  # each row's product on its own, as the bot runs it (see the test below)
        for i in range(int(raw[f"{net}_layers"])):
            x = np.matmul(x[:, None, :], raw[f"{net}_w{i}"])[:, 0] + raw[f"{net}_b{i}"]
            if i < int(raw[f"{net}_layers"]) - 1:
                x = np.tanh(x) if str(raw["activation"]) == "tanh" else np.maximum(x, 0)
        return x

    on = obs[:, int(raw["on_offence_index"])] > 0.5
    logits = np.empty((400, int(raw["num_actions"])), dtype=np.float32)
    logits[on], logits[~on] = forward("offence", obs[on]), forward("defence", obs[~on])
    np.testing.assert_array_equal(bot.logits(obs), logits)
    masked = np.where(masks, logits, bot_module.MASKED_LOGIT)
    np.testing.assert_array_equal(bot.act(obs, masks), masked.argmax(1))
    u = rng.random(400)
    for temperature in bot_module.LEVELS.values():
        z = masked / temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z) * masks
        p /= p.sum(axis=1, keepdims=True)
        expected = (p.cumsum(1) > u[:, None]).argmax(1)
        np.testing.assert_array_equal(bot.act(obs, masks, temperature, uniforms=u), expected)


def test_a_rows_logits_do_not_depend_on_the_other_rows_of_its_batch():
    """A game's logits are its own: the shipped bot's logits for a row are the same to the bit whether the
    row is scored alone, in a smaller or larger batch, in another order, or from a buffer at another
    alignment (a float32 product over the whole batch rounds by the batch's shape, which made a game's
    sampled move depend, now and then, on the other games of its batch)."""
    bot = Bot.load(SHIPPED)
    rng = np.random.default_rng(11)
    obs = rng.standard_normal((300, bot.features_size)).astype(np.float32)
    obs[:, bot.on_offence_index] = rng.random(300) < 0.5
    full = bot.logits(obs)
    for rows in (np.arange(1), np.arange(3), np.arange(37), rng.permutation(300), rng.choice(300, 120)):
        np.testing.assert_array_equal(bot.logits(obs[rows]), full[rows])
    for row in (0, 5, 299):
        np.testing.assert_array_equal(bot.logits(obs[row]), full[row:row + 1])
    shifted = np.empty(obs.size + 3, np.float32)[3:].reshape(obs.shape)  # another alignment in memory
    shifted[:] = obs
    np.testing.assert_array_equal(bot.logits(shifted), full)
    bigger = np.concatenate([obs, rng.standard_normal((1700, bot.features_size)).astype(np.float32)])
    np.testing.assert_array_equal(bot.logits(bigger)[:300], full)


# ------------------------------------------------------------------------------------------ bytes

def test_empty_random_and_bare_npy_files(tmp_path):
    (tmp_path / "empty.npz").write_bytes(b"")
    refused(tmp_path / "empty.npz", "empty")
    (tmp_path / "noise.npz").write_bytes(np.random.default_rng(0).bytes(5000))
    refused(tmp_path / "noise.npz", "not a readable .npz bot file")
    (tmp_path / "zipnoise.npz").write_bytes(b"PK\x03\x04" + np.random.default_rng(1).bytes(5000))
    refused(tmp_path / "zipnoise.npz", "not a readable .npz bot file")
    np.save(tmp_path / "bare.npy", np.zeros((3, 3), np.float32))
    os.replace(tmp_path / "bare.npy", tmp_path / "bare.npz")
    refused(tmp_path / "bare.npz", "bare .npy")


@pytest.mark.parametrize("fraction", [0.0001, 0.01, 0.3, 0.5, 0.9, 0.999])
def test_truncated_files(valid, fraction):
    data = valid.read_bytes()
    cut = valid.with_name("cut.npz")
    cut.write_bytes(data[:max(1, int(len(data) * fraction))])
    refused(cut)


def test_flipped_bytes_everywhere(valid, positions):
    """One flipped bit at 80 positions spread over the whole file (headers, data, directory): each file is
    refused naming it, or (a flip in a field nobody reads, such as a timestamp) loads and plays legally."""
    data = valid.read_bytes()
    flipped = valid.with_name("flipped.npz")
    loaded = 0
    for position in np.linspace(0, len(data) - 1, 80).astype(int):
        damaged = bytearray(data)
        damaged[position] ^= 0x10
        flipped.write_bytes(bytes(damaged))
        loaded += check_load(flipped, positions)
    assert loaded < 20  # the data is guarded (CRC, headers, values): most flips are caught


# ------------------------------------------------------------------------------------------ zip directory

def test_a_member_claiming_800_gb_is_refused_before_decompressing(valid):
    def claim(info):
        if info.filename == "offence_w0.npy":
            info.file_size = 800 * 10**9
    valid.write_bytes(rezip(valid.read_bytes(), claim))
    message = refused(valid, "claims 800000000000 bytes")
    assert str(MAX_MEMBER_BYTES) in message


def test_members_claiming_too_much_together_are_refused(tmp_path):
    path = write_npz(tmp_path / "sum.npz", small_arrays(hidden=(6, 6)))

    def claim(info):
        if "_w" in info.filename:
            info.file_size = MAX_MEMBER_BYTES  # each one allowed, six of them not
    path.write_bytes(rezip(path.read_bytes(), claim))
    assert 6 * MAX_MEMBER_BYTES > MAX_TOTAL_BYTES
    valid = path
    refused(valid, f"more than {MAX_TOTAL_BYTES}")


def test_a_member_whose_data_outgrows_its_declared_size_is_refused(valid):
    def shrink(info):
        if info.filename == "offence_w0.npy":
            info.file_size = 100
    valid.write_bytes(rezip(valid.read_bytes(), shrink))
    refused(valid)


@pytest.mark.parametrize("edit, match", [
    (lambda i: setattr(i, "filename", i.filename.replace("num_actions", "num_action")), "not an array of a bot"),
    (lambda i: setattr(i, "CRC", i.CRC ^ 1) if i.filename == "format.npy" else None, "damaged"),
    (lambda i: setattr(i, "compress_type", 12) if i.filename == "activation.npy" else None, "compression method"),
    (lambda i: setattr(i, "compress_type", 99) if i.filename == "activation.npy" else None, "compression method"),
    (lambda i: setattr(i, "flag_bits", i.flag_bits | 1) if i.filename == "format.npy" else None, "encrypted"),
])
def test_zip_directory_edits(valid, edit, match):
    valid.write_bytes(rezip(valid.read_bytes(), edit))
    refused(valid, match)


def test_unknown_duplicate_and_missing_members(valid):
    data = valid.read_bytes()
    valid.write_bytes(rezip(data, extra=[("notes.txt", b"hello")]))
    refused(valid, "'notes.txt'")
    with pytest.warns(UserWarning, match="Duplicate name"):
        valid.write_bytes(rezip(data, extra=[("format.npy", b"x")]))
    refused(valid, "twice")
    arrays = small_arrays()
    del arrays["format"]
    refused(write_npz(valid, arrays), f"not a {FORMAT} file")


@pytest.mark.parametrize("key", [f.key for f in FIELDS if f.required and f.key != "format"]
                         + ["offence_w1", "defence_b0"])
def test_each_missing_array(tmp_path, key):
    arrays = small_arrays()
    del arrays[key]
    refused(write_npz(tmp_path / f"no_{key}.npz", arrays), f"lacks the array '{key}'")


def test_layer_arrays_beyond_the_layer_count(tmp_path):
    arrays = small_arrays()
    arrays["offence_w7"] = np.zeros((3, 3), np.float32)
    refused(write_npz(tmp_path / "extra_layer.npz", arrays), "'offence_w7' beyond")


# ------------------------------------------------------------------------------------------ dtypes

class Unpickled:
    """An object whose unpickling would leave a mark on the disk."""

    def __init__(self, mark):
        self.mark = mark

    def __reduce__(self):
        return (Path.touch, (Path(self.mark),))


@pytest.mark.parametrize("key", ["offence_w0", "defence_b1", "features_size", "activation", "format"])
def test_object_arrays_are_refused_without_unpickling(tmp_path, key):
    mark = tmp_path / "unpickled"
    arrays = small_arrays()
    trap = np.empty(arrays[key].shape, dtype=object)
    trap.fill(Unpickled(mark))
    arrays[key] = trap
    path = write_npz(tmp_path / f"pickle_{key}.npz", arrays)
    refused(path, "object")
    assert not mark.exists()
    with np.load(path, allow_pickle=True) as data:  # the trap is real: unpickling springs it
        data[key]
    assert mark.exists()


BAD_VALUES = {
    "string": lambda a: np.full(a.shape, "1.0"),
    "bytes": lambda a: np.full(a.shape, b"1"),
    "complex": lambda a: np.ones(a.shape, np.complex64),
    "datetime": lambda a: np.zeros(a.shape, "datetime64[s]"),
    "timedelta": lambda a: np.zeros(a.shape, "timedelta64[s]"),
    "bool": lambda a: np.ones(a.shape, bool),
    "structured": lambda a: np.zeros(a.shape, [("x", "<f4")]),
    "float": lambda a: np.full(a.shape, 0.5),
    "int": lambda a: np.ones(a.shape, np.int32),
}
# the kinds each array accepts: everything else must be refused
ACCEPTS = {"offence_w0": ("float",), "defence_b1": ("float",), "features_size": ("int",),
           "num_actions": ("int",), "offence_layers": ("int",), "activation": ("string",), "format": ("string",)}


@pytest.mark.parametrize("key", sorted(ACCEPTS))
@pytest.mark.parametrize("kind", sorted(BAD_VALUES))
def test_wrong_dtypes_are_refused(tmp_path, key, kind):
    if kind in ACCEPTS[key]:
        return
    arrays = small_arrays()
    arrays[key] = BAD_VALUES[kind](arrays[key])
    message = refused(write_npz(tmp_path / f"{kind}_{key}.npz", arrays), f"'{key}'")
    assert "must be" in message


def test_float16_and_float64_weights_load_as_float32(tmp_path, positions):
    arrays = small_arrays()
    arrays["offence_w0"] = arrays["offence_w0"].astype(np.float64)
    arrays["defence_w0"] = arrays["defence_w0"].astype(np.float16)
    arrays["offence_b0"] = arrays["offence_b0"].astype(">f4")  # big-endian
    bot = Bot.load(write_npz(tmp_path / "mixed.npz", arrays))
    assert all(w.dtype == np.float32 for w, _ in bot.offence + bot.defence)
    assert_plays_legally(bot, positions)


# ------------------------------------------------------------------------------------------ shapes, values

@pytest.mark.parametrize("key, value, match", [
    ("offence_w1", np.zeros((5, NUM_ACTIONS), np.float32), "layer 1"),
    ("defence_b0", np.zeros(7, np.float32), "layer 0"),
    ("offence_w0", np.zeros((FEATURES_SIZE, 6, 1), np.float32), "dimensions"),
    ("offence_w0", np.zeros((FEATURES_SIZE, 0), np.float32), "at least 1"),
    ("defence_b1", np.zeros((), np.float32), "dimension"),
    ("features_size", np.array([FEATURES_SIZE]), "dimensions"),
    ("activation", np.array(["tanh", "relu"]), "dimensions"),
    ("offence_w1", np.zeros((6, NUM_ACTIONS + 1), np.float32), "layer 1"),
])
def test_wrong_shapes_name_the_file(tmp_path, key, value, match):
    arrays = small_arrays()
    arrays[key] = value
    refused(write_npz(tmp_path / "shapes.npz", arrays), match)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e300])
def test_non_finite_weights(tmp_path, bad):
    arrays = small_arrays()
    w = arrays["defence_w1"].astype(np.float64)
    w[2, 3] = bad
    arrays["defence_w1"] = w
    refused(write_npz(tmp_path / "nonfinite.npz", arrays), "non-finite")


@pytest.mark.parametrize("key, value, match", [
    ("on_offence_index", 9999, "on_offence"),
    ("on_offence_index", -1, "on_offence"),
    ("on_offence_index", ON_OFFENCE + 1, "feature"),
    ("on_offence_index", 2**63 - 1, "on_offence"),
    ("features_size", 0, "from 1"),
    ("features_size", FEATURES_SIZE + 1, "features"),
    ("num_actions", -5, "from 1"),
    ("offence_layers", 0, "from 1"),
    ("defence_layers", 33, "to 32"),
    ("offence_layers", 3, "lacks"),
    ("activation", "sigmoid", "'tanh' or 'relu'"),
    ("activation", "x" * 500, "characters"),
    ("format", "gridiron-bot-v9", FORMAT),
])
def test_metadata_out_of_range(tmp_path, key, value, match):
    arrays = small_arrays()
    arrays[key] = np.array(value, dtype=np.uint64 if isinstance(value, int) and value >= 2**63 else None)
    refused(write_npz(tmp_path / "meta.npz", arrays), match)


def test_on_offence_index_is_checked_against_a_custom_game_only_by_range(tmp_path, positions):
    """A bot for another observation (``features_size`` given) may use its own on_offence index, but it
    must still lie inside the observation."""
    arrays = small_arrays()
    arrays["on_offence_index"] = np.array(3)
    path = write_npz(tmp_path / "custom.npz", arrays)
    refused(path, "feature 3")
    bot = Bot.load(path, features_size=FEATURES_SIZE, num_actions=NUM_ACTIONS, on_offence_index=3)
    assert bot.on_offence_index == 3
    arrays["on_offence_index"] = np.array(FEATURES_SIZE)
    refused(write_npz(tmp_path / "outside.npz", arrays), "on_offence_index", features_size=FEATURES_SIZE,
            num_actions=NUM_ACTIONS, on_offence_index=FEATURES_SIZE)


def raw_npy(header: str, payload: bytes, version: bytes = b"\x01\x00") -> bytes:
    """A .npy member written by hand: any header text, any payload."""
    text = header.encode("latin1")
    pad = (-(10 + len(text) + 1)) % 64
    text += b" " * pad + b"\n"
    return b"\x93NUMPY" + version + struct.pack("<H", len(text)) + text + payload


GOOD_B0 = np.zeros(6, np.float32).tobytes()


@pytest.mark.parametrize("header, payload, match", [
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", GOOD_B0, None),  # the control: loads
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (10**12,), }", GOOD_B0, "header"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (999999999999,), }", GOOD_B0, "needs 3999999999996"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (-6,), }", GOOD_B0, "at least 1"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", GOOD_B0[:-1], "needs 24"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", GOOD_B0 + b"x", "needs 24"),
    ("{'descr': '|O', 'fortran_order': False, 'shape': (6,), }", b"\x80\x04N." * 6, "object"),
    ("{'descr': '<U99999999999', 'fortran_order': False, 'shape': (6,), }", GOOD_B0, "header"),
    ("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", GOOD_B0, "structured"),
    ("['descr', '<f4']", GOOD_B0, "header"),
    ("{'descr': '<f4', 'fortran_order': 'yes', 'shape': (6,), }", GOOD_B0, "header"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1}", GOOD_B0, "header"),
    ("{" + "(" * 300 + ")" * 300 + "}", GOOD_B0, "header"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }" + " " * 20000, GOOD_B0, "header"),
])
def test_npy_header_lies_are_refused_before_reading_data(tmp_path, header, payload, match):
    """A header claiming far more data than the member holds (numpy would allocate it first), a negative
    or malformed shape, a pickled or structured dtype, a header that is not a plain dict."""
    path = write_npz(tmp_path / "lies.npz", small_arrays(), compressed=False)

    def swap(info):
        pass
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            data = raw_npy(header, payload) if info.filename == "offence_b0.npy" else zin.read(info)
            zout.writestr(info.filename, data)
    path.write_bytes(out.getvalue())
    if match is None:
        Bot.load(path)
    else:
        refused(path, match)


def test_npy_versions(tmp_path):
    path = write_npz(tmp_path / "version.npz", small_arrays(), compressed=False)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }"
    for version, ok in ((b"\x02\x00", True), (b"\x03\x00", False), (b"\x09\x09", False)):
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as zin, zipfile.ZipFile(out, "w") as zout:
            for info in zin.infolist():
                if info.filename == "offence_b0.npy":
                    text = header.encode() + b" " * ((-(12 + len(header) + 1)) % 64) + b"\n"
                    size = struct.pack("<I" if version != b"\x01\x00" else "<H", len(text))
                    zout.writestr(info.filename, b"\x93NUMPY" + version + size + text + GOOD_B0)
                else:
                    zout.writestr(info.filename, zin.read(info))
        target = tmp_path / "v.npz"
        target.write_bytes(out.getvalue())
        if ok:
            Bot.load(target)
        else:
            refused(target, "header")


# ------------------------------------------------------------------------------------------ paths

def test_bad_paths(tmp_path):
    refused(tmp_path / "missing.npz", "no bot file at")
    (tmp_path / "folder.npz").mkdir()
    refused(tmp_path / "folder.npz", "directory")
    long = tmp_path / ("y" * 5000 + ".npz")
    with pytest.raises(BotFileError, match="no bot file at .*npz") as info:
        Bot.load(long)
    assert len(str(info.value)) < 400  # the name is shortened, its end kept
    with pytest.raises(BotFileError, match="NUL"):
        Bot.load(str(tmp_path / "nul\0.npz"))
    with pytest.raises(BotFileError, match="regular file"):
        Bot.load("/dev/null")
    os.mkfifo(tmp_path / "pipe.npz")  # opening a pipe would block until a writer comes: refused first
    refused(tmp_path / "pipe.npz", "regular file")
    with pytest.raises(BotFileError, match="path"):
        Bot.load(12)
    newline = tmp_path / "two\nlines.npz"
    newline.write_bytes(b"junk")
    with pytest.raises(BotFileError, match=r"two\\nlines.npz") as info:
        Bot.load(newline)
    assert "\n" not in str(info.value)


def test_an_oversized_file_is_refused_before_reading_it(tmp_path):
    path = tmp_path / "huge.npz"
    with open(path, "wb") as f:
        f.truncate(bot_module.MAX_FILE_BYTES + 1)  # sparse: no disk used, nothing to read
    refused(path, f"at most {bot_module.MAX_FILE_BYTES}")


# ------------------------------------------------------------------------------------------ extensible

def test_a_new_optional_field_is_one_row_of_the_table(tmp_path, monkeypatch, positions):
    """The loader reads its checks from FIELDS: one optional row makes a new array loadable, with its
    dtype, shape and range checked; older files still load; the value is kept and saved back."""
    row = Field("style_weights", "f", 1, "per-style weights", low=0.0, high=100.0, required=False,
                shape=(3,))
    monkeypatch.setattr(bot_module, "FIELDS", FIELDS + (row,))
    arrays = small_arrays()
    old = Bot.load(write_npz(tmp_path / "old.npz", arrays))
    assert old.metadata == {}
    assert_plays_legally(old, positions)
    arrays["style_weights"] = np.array([2.5, 2.0, 0.3])
    new = Bot.load(write_npz(tmp_path / "new.npz", arrays))
    np.testing.assert_array_equal(new.metadata["style_weights"], np.float32([2.5, 2.0, 0.3]))
    new.save(tmp_path / "again.npz")
    np.testing.assert_array_equal(Bot.load(tmp_path / "again.npz").metadata["style_weights"],
                                  new.metadata["style_weights"])
    for bad, match in [(np.array(["hot"] * 3), "'style_weights' (per-style weights) holds text"),
                       (np.array([np.nan, 1, 1]), "non-finite"), (np.array([1.0, 2.0]), "shape (3,)"),
                       (np.array([1.0, -2.0, 1.0]), "from 0.0 to 100.0"), (np.array([[1.0, 2.0, 3.0]]), "dimension")]:
        arrays["style_weights"] = bad
        refused(write_npz(tmp_path / "bad.npz", arrays), match)


# ------------------------------------------------------------------------------------------ wild nets

def test_a_wild_but_finite_net_still_plays_only_legal_actions(tmp_path, positions):
    """Finite weights whose logits overflow to inf and nan, or fall below the mask value: still legal, at
    every temperature."""
    obs, masks = positions
    for scale in (1e30, -1e30, 1e12):
        arrays = small_arrays(hidden=(6, 6), activation="relu")
        for key in arrays:
            if "_w" in key:
                arrays[key] = arrays[key] * np.float32(scale)
        bot = Bot.load(write_npz(tmp_path / "wild.npz", arrays))
        for temperature in (0.0, 1e-30, 0.3, 1.0, 1e30, float("inf")):
            actions = bot.act(obs, masks, temperature, rng=np.random.default_rng(0))
            assert masks[np.arange(len(obs)), actions].all(), (scale, temperature)


# ------------------------------------------------------------------------------------------ fuzzers

def check_load(path, positions):
    """The fuzzers' property: a Bot that plays legally, or a BotFileError naming the file."""
    try:
        bot = Bot.load(path)
    except BotFileError as err:
        assert path.name in str(err)
        return False
    assert_plays_legally(bot, positions)
    return True


@pytest.fixture(scope="module")
def valid_bytes(tmp_path_factory):
    return {compressed: write_npz(tmp_path_factory.mktemp("fuzz") / "v.npz", small_arrays(hidden=(4,)),
                                  compressed).read_bytes() for compressed in (True, False)}


mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("set"), st.integers(0, 10**6), st.integers(0, 255)),
    st.tuples(st.just("drop"), st.integers(0, 10**6), st.integers(1, 64)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.integers(0, 255)),
)


def mutate(data: bytearray, mutations) -> None:
    """In place: apply (op, where, arg) byte mutations: flip a bit, cut the tail, set, drop or insert bytes."""
    for op, where, arg in mutations:
        if not data:
            break
        i = where % len(data)
        if op == "flip":
            data[i] ^= 1 << arg
        elif op == "cut":
            del data[i:]
        elif op == "set":
            data[i] = arg
        elif op == "drop":
            del data[i:i + arg]
        else:
            data.insert(i, arg)


@FUZZ
@given(compressed=st.booleans(), mutations=st.lists(mutation, min_size=1, max_size=6))
def test_fuzz_mutated_bytes(tmp_path, positions, valid_bytes, compressed, mutations):
    data = bytearray(valid_bytes[compressed])
    mutate(data, mutations)
    path = tmp_path / "mutated.npz"
    path.write_bytes(bytes(data))
    check_load(path, positions)


directory_edit = st.tuples(
    st.integers(0, 40),
    st.sampled_from(["file_size", "compress_size", "CRC", "compress_type", "flag_bits", "filename", "drop",
                     "header_offset"]),
    st.integers(0, 2**40))


@FUZZ
@given(compressed=st.booleans(), edits=st.lists(directory_edit, min_size=1, max_size=4))
def test_fuzz_zip_directory_edits(tmp_path, positions, valid_bytes, compressed, edits):
    """Members renamed or dropped and directory fields (sizes, CRC, method, flags, offsets) rewritten."""
    names = [i.filename for i in zipfile.ZipFile(io.BytesIO(valid_bytes[compressed])).infolist()]
    keys = sorted({n[:-4] for n in names} | {"junk", "offence_w9", "format"})
    drops = {names[k % len(names)] for k, what, _ in edits if what == "drop"}

    def edit(info):
        index = names.index(info.filename) if info.filename in names else -1
        for k, what, value in edits:
            if k % len(names) != index or what == "drop":
                continue
            if what == "filename":
                info.filename = keys[value % len(keys)] + (".npy" if value % 5 else "")
            elif what == "compress_type":
                info.compress_type = [0, 8, 12, 14, 99][value % 5]
            elif what == "flag_bits":
                info.flag_bits ^= 1 << (value % 16)
            elif what == "header_offset":
                info.header_offset = value % (len(valid_bytes[compressed]) + 100)
            else:
                setattr(info, what, value % (1 << 32) if what == "CRC" else value)

    source = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(valid_bytes[compressed])) as zin, zipfile.ZipFile(source, "w") as zout:
        for info in zin.infolist():
            if info.filename not in drops:
                zout.writestr(info.filename, zin.read(info), compress_type=info.compress_type)
        for info in zout.infolist():
            edit(info)
    path = tmp_path / "edited.npz"
    path.write_bytes(source.getvalue())
    check_load(path, positions)


def random_array(draw, shape_hint):
    """An array of a random dtype, of ``shape_hint`` or a random small shape."""
    kind = draw(st.sampled_from(["f4", "f8", "f2", "i8", "u1", "b1", "c8", "U15", "S3", "M8[s]", "O", "void"]))
    if shape_hint is not None and draw(st.booleans()):
        shape = shape_hint
    else:
        shape = tuple(draw(st.lists(st.integers(0, 7), max_size=3)))
    if kind == "O":
        return np.empty(shape, dtype=object)
    if kind == "void":
        return np.zeros(shape, [("a", "<i4")])
    if kind == "M8[s]":
        return np.zeros(shape, kind)
    if kind in ("U15", "S3"):
        return np.full(shape, draw(st.sampled_from(["tanh", "relu", FORMAT, "", "x"])), dtype=kind)
    value = draw(st.sampled_from([0, 1, -1, 3, ON_OFFENCE, FEATURES_SIZE, NUM_ACTIONS, 2**31]))
    if kind[0] in "fc":
        value = draw(st.sampled_from([value, np.nan, np.inf, 0.5]))
    with np.errstate(all="ignore"):
        return np.full(shape, value).astype(kind)


@st.composite
def npz_contents(draw):
    """A valid bot's arrays with some replaced, dropped or added: random keys, dtypes and shapes."""
    arrays = small_arrays(hidden=(draw(st.integers(1, 5)),), seed=draw(st.integers(0, 3)))
    keys = sorted(arrays)
    for _ in range(draw(st.integers(1, 5))):
        action = draw(st.sampled_from(["replace", "drop", "add", "retype"]))
        if action == "drop" and arrays:
            arrays.pop(draw(st.sampled_from(sorted(arrays))))
        elif action == "add":
            key = draw(st.sampled_from(keys + ["offence_w2", "defence_b5", "junk", "Format", "offence_w01"]))
            arrays[key] = random_array(draw, None)
        elif action == "retype" and arrays:
            key = draw(st.sampled_from(sorted(arrays)))
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # complex to real
                try:
                    arrays[key] = arrays[key].astype(draw(st.sampled_from(["f8", "f2", "i4", "u8", "b1", "U8"])))
                except (ValueError, TypeError, RuntimeError):  # text, objects or dates that are no number
                    pass
        elif arrays:
            key = draw(st.sampled_from(sorted(arrays)))
            arrays[key] = random_array(draw, arrays[key].shape)
    return arrays


@FUZZ
@given(arrays=npz_contents(), compressed=st.booleans())
def test_fuzz_random_keys_dtypes_and_shapes(tmp_path, positions, arrays, compressed):
    path = tmp_path / "random.npz"
    write_npz(path, arrays, compressed)
    check_load(path, positions)


# ------------------------------------------------------------------------------------------ onnx

def onnx_bot_bytes(features=FEATURES_SIZE, actions=NUM_ACTIONS, batch="batch", names=("observation",
                   "action_mask", "action", "logits"), observation_type=None, action_type=None,
                   ignore_mask=False, seed=0) -> bytes:
    """A one-layer ONNX bot with the exported signature, built with onnx.helper."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    observation_type = TensorProto.FLOAT if observation_type is None else observation_type
    action_type = TensorProto.INT64 if action_type is None else action_type
    inputs = [names[0]]
    nodes = []
    if observation_type != TensorProto.FLOAT:
        nodes.append(helper.make_node("Cast", [names[0]], ["obs32"], to=TensorProto.FLOAT))
        inputs = ["obs32"]
    nodes += [helper.make_node("MatMul", [inputs[0], "W"], ["mm"]),
              helper.make_node("Add", ["mm", "b"], [names[3]]),
              helper.make_node("Greater", [names[1], "half"], ["legal"]),
              helper.make_node("Where", ["legal", names[3], "masked_logit"], ["masked"]),
              helper.make_node("ArgMax", [names[3] if ignore_mask else "masked"], ["best"], axis=1, keepdims=0)]
    nodes.append(helper.make_node("Cast", ["best"], [names[2]], to=action_type))
    graph = helper.make_graph(
        nodes, "bot",
        [helper.make_tensor_value_info(names[0], observation_type, [batch, features]),
         helper.make_tensor_value_info(names[1], TensorProto.FLOAT, [batch, actions])],
        [helper.make_tensor_value_info(names[2], action_type, [batch]),
         helper.make_tensor_value_info(names[3], TensorProto.FLOAT, [batch, actions])],
        [numpy_helper.from_array(rng.normal(size=(features, actions)).astype(np.float32), "W"),
         numpy_helper.from_array(rng.normal(size=actions).astype(np.float32), "b"),
         numpy_helper.from_array(np.array(0.5, np.float32), "half"),
         numpy_helper.from_array(np.array(-1e8, np.float32), "masked_logit")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def onnx_refused(path, match=None):
    from train.export import OnnxBot

    with pytest.raises(BotFileError) as info:
        OnnxBot(path)
    assert Path(path).name in str(info.value) and "\n" not in str(info.value), str(info.value)
    if match is not None:
        assert match in str(info.value), str(info.value)


def test_onnx_bot_built_with_onnx_helper_loads_and_plays_legally(tmp_path, positions):
    pytest.importorskip("onnxruntime")
    from train.export import OnnxBot

    path = tmp_path / "good.onnx"
    path.write_bytes(onnx_bot_bytes())
    runtime = OnnxBot(path)
    obs, masks = positions
    actions, logits = runtime.run(obs, masks)
    assert logits.shape == (len(obs), NUM_ACTIONS)
    assert masks[np.arange(len(obs)), actions].all()


@pytest.mark.parametrize("name, kwargs, match", [
    ("features", dict(features=FEATURES_SIZE + 1), "'observation'"),
    ("actions", dict(actions=NUM_ACTIONS - 1), "'action_mask'"),
    ("fixed_batch", dict(batch=2), "dynamic batch"),
    ("double", dict(observation_type=11), "'observation' is tensor(double)"),
    ("int32", dict(action_type=6), "'action' is tensor(int32)"),
    ("names", dict(names=("obs", "action_mask", "action", "logits")), "inputs ['obs', 'action_mask']"),
    ("out_names", dict(names=("observation", "action_mask", "act", "logits")), "outputs ['act', 'logits']"),
    ("no_mask", dict(ignore_mask=True), "illegal action"),
])
def test_onnx_with_the_wrong_signature_is_refused_at_load(tmp_path, name, kwargs, match):
    pytest.importorskip("onnxruntime")
    path = tmp_path / f"{name}.onnx"
    path.write_bytes(onnx_bot_bytes(**kwargs))
    onnx_refused(path, match)


def test_an_onnx_bot_of_the_earlier_observation_layout_reads_the_prefix(tmp_path, positions):
    pytest.importorskip("onnxruntime")
    from gridiron_env.core.observe import FEATURE_LAYOUT_SIZES
    from train.export import OnnxBot

    obs, masks = positions
    for width in FEATURE_LAYOUT_SIZES:
        path = tmp_path / f"layout_{width}.onnx"
        path.write_bytes(onnx_bot_bytes(features=width))
        runtime = OnnxBot(path)
        actions, logits = runtime.run(obs, masks)
        assert runtime.features_size == width and masks[np.arange(len(obs)), actions].all()
        if width < FEATURES_SIZE:
            np.testing.assert_array_equal(logits, runtime.run(obs[:, :width], masks)[1])
    path.write_bytes(onnx_bot_bytes(features=FEATURE_LAYOUT_SIZES[0] + 1))
    onnx_refused(path, "'observation'")


def test_malformed_onnx_files(tmp_path):
    pytest.importorskip("onnxruntime")
    good = onnx_bot_bytes()
    for name, data, match in [("empty.onnx", b"", "empty"), ("garbage.onnx", b"garbage", "not a loadable ONNX"),
                              ("noise.onnx", np.random.default_rng(0).bytes(3000), "not a loadable ONNX"),
                              ("half.onnx", good[:len(good) // 2], "not a loadable ONNX"),
                              ("npz.onnx", SHIPPED.read_bytes(), "not a loadable ONNX")]:
        (tmp_path / name).write_bytes(data)
        onnx_refused(tmp_path / name, match)
    onnx_refused(tmp_path / "missing.onnx", "no bot file at")
    (tmp_path / "dir.onnx").mkdir()
    onnx_refused(tmp_path / "dir.onnx", "directory")


def test_onnx_with_external_weights_is_refused(tmp_path):
    pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    model = onnx.load_model_from_string(onnx_bot_bytes())
    onnx.save_model(model, tmp_path / "external.onnx", save_as_external_data=True, all_tensors_to_one_file=True,
                    location="weights.bin", size_threshold=0)
    onnx_refused(tmp_path / "external.onnx", "another file")


@FUZZ
@given(mutations=st.lists(mutation, min_size=1, max_size=4))
def test_fuzz_onnx_bytes(tmp_path, positions, mutations):
    pytest.importorskip("onnxruntime")
    from train.export import OnnxBot

    data = bytearray(_good_onnx())
    mutate(data, mutations)
    path = tmp_path / "mutated.onnx"
    path.write_bytes(bytes(data))
    try:
        runtime = OnnxBot(path)
    except BotFileError as err:
        assert path.name in str(err)
        return
    obs, masks = positions
    try:
        actions, _ = runtime.run(obs, masks)
    except BotFileError as err:  # a damaged graph that passed the probe: refused when it plays
        assert path.name in str(err)
        return
    assert masks[np.arange(len(obs)), actions].all()


_ONNX_CACHE: list[bytes] = []


def _good_onnx() -> bytes:
    if not _ONNX_CACHE:
        _ONNX_CACHE.append(onnx_bot_bytes(seed=1))
    return _ONNX_CACHE[0]


# ------------------------------------------------------------------------------------------ command lines

def _bad_files(tmp_path) -> dict[str, str]:
    """Bad bot paths by kind, and the file name each message must contain."""
    (tmp_path / "corrupt.npz").write_bytes(b"PK\x03\x04 not really a zip")
    (tmp_path / "folder.npz").mkdir()
    arrays = small_arrays()
    arrays["on_offence_index"] = np.array(9999)
    write_npz(tmp_path / "meta.npz", arrays)
    return {"missing": str(tmp_path / "missing.npz"), "corrupt": str(tmp_path / "corrupt.npz"),
            "directory": str(tmp_path / "folder.npz"), "metadata": str(tmp_path / "meta.npz"),
            "long": str(tmp_path / ("z" * 5000 + ".npz"))}


COMMANDS = {
    "play": lambda path: ["-m", "agents.play", "--opponent", f"bot:{path}", "--seed", "1"],
    "tournament": lambda path: ["-m", "train.tournament", "--agents", "random", f"bot:{path}", "--games", "2"],
    "evaluate": lambda path: ["-m", "train.evaluate", path, "--games", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["missing", "corrupt", "directory", "metadata", "long"])
def test_command_lines_answer_a_bad_bot_file_with_one_line(tmp_path, command, kind):
    path = _bad_files(tmp_path)[kind]
    proc = subprocess.run([sys.executable, *COMMANDS[command](path)], capture_output=True, text=True, cwd=ROOT,
                          stdin=subprocess.DEVNULL, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = [line for line in proc.stderr.splitlines() if "error" in line]
    assert len(lines) == 1, proc.stderr
    shown = Path(path).name if kind != "long" else "zzz.npz"
    assert shown in lines[0], lines[0]


def test_command_line_onnx_bot_errors(tmp_path):
    pytest.importorskip("onnxruntime")
    path = tmp_path / "fixed.onnx"
    path.write_bytes(onnx_bot_bytes(batch=2))
    proc = subprocess.run([sys.executable, "-m", "train.tournament", "--agents", "random", f"onnx:{path}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "fixed.onnx" in proc.stderr and "dynamic batch" in proc.stderr


def test_play_refuses_a_path_with_nul_in_process(tmp_path):
    from agents.play import main

    out = []
    assert main(["--opponent", f"bot:{tmp_path}/nul\0.npz"], input_fn=lambda p="": "quit", print_fn=out.append) == 2
    assert any("NUL" in line for line in out)
