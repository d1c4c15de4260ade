"""Export a policy net of any protocol game to a numpy bot file and to ONNX; load both, validated.

One net serves both seats (the observation is from the acting team's side), so a game bot is one MLP:
``observation`` float32 [batch, game.observation_size] -> logits [batch, game.num_actions]. The call for
trainers is :func:`export_policy`.

**The numpy file** (``.npz``, a zip of ``.npy`` arrays, the one table :data:`FIELDS`)::

    format         str   "game-bot-v1"
    game           str   the game's registered name (``GameSpec.name``)
    layout         str   a digest of the game's observation layout and action names (``layout_digest``)
    features_size  int   observation length; num_actions  int   size of the action space
    activation     str   "tanh" or "relu" (between the layers; the last layer gives the logits)
    layers         int   number of linear layers;  w{i} float [in, out], b{i} float [out]
    variant        str   optional: the variant it was trained on (informative)

Loading (:meth:`GameBot.load`) never unpickles and never trusts a size, as ``agents/bot.py`` does: the
file is read whole (``agents.bot.read_bot_file``: at most ``agents.bot.MAX_FILE_BYTES``), the zip
directory is checked (names, each member's declared size) before anything is decompressed, each ``.npy``
header against :data:`FIELDS` (dtype kind, rank, length) before its data is read, then values (ranges,
finite floats), the layer shapes and the game: a file of another format, of another game, or of this
game with another observation layout or action space, is refused. Every failure raises :class:`GameBotFileError` (a ``BotFileError``, so a ValueError) naming
the file and the problem.

**The ONNX file** (:func:`export_onnx`, needs torch, onnx and onnxscript): inputs ``observation`` float32
[batch, F] and ``action_mask`` float32 [batch, A] (1 legal, 0 not), outputs ``action`` int64 [batch]
(the best legal action) and ``logits`` float32 [batch, A]; the model's metadata holds ``format``,
``game`` and ``layout`` as the numpy file does. :class:`GameOnnxBot` loads one with onnxruntime and
checks it like ``train.export.OnnxBot`` (size cap, onnx checker, signature, a probe run) plus the game.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile

import numpy as np

from agents.bot import (
    ACTIVATIONS, MASKED_LOGIT, MAX_LAYERS, MAX_MEMBER_BYTES, MAX_SIZE, MAX_TOTAL_BYTES, BotFileError, Field,
    display_name, mlp_forward, read_bot_file, short_reason,
)
from agents.bot import _read_array as _read_checked_array  # one .npy reader, checked against a Field row
from gridiron_env.protocol import GameSpec, get_game

__all__ = ["FORMAT", "FIELDS", "GameBotFileError", "GameBot", "GameOnnxBot", "export_policy", "export_npz",
           "export_onnx", "policy_layers", "layout_digest", "masked_choice"]

FORMAT = "game-bot-v1"
_LOGIT_CAP = np.float32(1e30)
_LAYER = r"[wb](0|[1-9][0-9]?)"

FIELDS: tuple[Field, ...] = (
    Field("format", "U", 0, "the format name", choices=(FORMAT,)),
    Field("game", "U", 0, "the game's name"),
    Field("layout", "U", 0, "the digest of the game's observation layout and actions"),
    Field("features_size", "iu", 0, "the observation length", low=1, high=MAX_SIZE),
    Field("num_actions", "iu", 0, "the number of actions", low=1, high=MAX_SIZE),
    Field("activation", "U", 0, "the hidden layers' activation", choices=tuple(ACTIVATIONS)),
    Field("layers", "iu", 0, "the net's number of layers", low=1, high=MAX_LAYERS),
    Field("variant", "U", 0, "the variant the net was trained on", required=False),
    Field("w(0|[1-9][0-9]?)", "f", 2, "a layer's weights", required=False),
    Field("b(0|[1-9][0-9]?)", "f", 1, "a layer's biases", required=False),
)
_MAX_MEMBERS = 2 * MAX_LAYERS + len(FIELDS)


class GameBotFileError(BotFileError):
    """A game-bot file (numpy or ONNX) that is missing, corrupt, or not a bot of this game."""


def _field_for(key: str) -> Field | None:
    return next((f for f in FIELDS if f.matches(key)), None)


def layout_digest(game) -> str:
    """32 hex characters pinning the game's observation layout (names and slices), size and action names:
    a bot fits a game exactly when the digests agree."""
    game = get_game(game)
    layout = [[name, int(sl.start), int(sl.stop)] for name, (sl, _) in game.observation_layout.items()]
    text = json.dumps({"game": game.name, "observation": layout, "size": int(game.observation_size),
                       "actions": list(game.action_names)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def masked_choice(logits, mask, temperature: float = 0.0, uniforms=None, rng=None) -> np.ndarray:
    """int64 [k]: the best legal logit of each row (temperature 0) or a sample of softmax(logits / T) over
    the legal actions, from ``uniforms`` (one float in [0, 1) per row) or ``rng``. Never an illegal action
    in a row with a legal one."""
    logits = np.atleast_2d(np.asarray(logits, dtype=np.float32))
    if not np.isfinite(logits).all():  # only a damaged net: keep the choice among the legal actions
        logits = np.nan_to_num(logits, nan=-_LOGIT_CAP, posinf=_LOGIT_CAP, neginf=-_LOGIT_CAP)
    mask = np.atleast_2d(np.asarray(mask)).astype(bool)
    masked = np.where(mask, logits, -np.inf)
    if not temperature > 0:
        return masked.argmax(axis=1).astype(np.int64)
    x = masked.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        z = (x - x.max(axis=1, keepdims=True)) / float(temperature)
        p = np.where(mask, np.exp(z), 0.0)
    p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-300)
    u = (rng or np.random.default_rng()).random(p.shape[0]) if uniforms is None else np.asarray(uniforms, float)
    pick = (p.cumsum(axis=1) > u[:, None] * p.sum(axis=1, keepdims=True)).argmax(axis=1)
    return np.where(mask[np.arange(len(pick)), pick], pick, masked.argmax(axis=1)).astype(np.int64)


# --------------------------------------------------------------------------------------------- nets

def policy_layers(policy) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The policy's linear layers as (W float32 [in, out], b float32 [out]) and the activation name.

    ``policy``: an SB3 / sb3-contrib actor-critic policy with an MLP actor (``mlp_extractor.policy_net``
    then ``action_net``, a flatten features extractor: MaskablePPO's ``MlpPolicy``); a ``torch.nn``
    ``Sequential`` of ``Linear`` layers with ``Tanh`` or ``ReLU`` between them (the last module a
    ``Linear``); a dict ``{"layers": [(W, b), ...], "activation": "tanh"}`` (W [in, out]), or
    ``{"w0": W0, "b0": b0, ..., "activation": ...}``; or a numpy net with those two attributes (a
    :class:`GameBot`, say). ValueError for anything else."""
    if not isinstance(policy, dict) and isinstance(getattr(policy, "layers", None), (list, tuple)) \
            and isinstance(getattr(policy, "activation", None), str):
        policy = {"layers": policy.layers, "activation": policy.activation}
    if isinstance(policy, dict):
        activation = policy.get("activation", "tanh")
        if "layers" in policy:
            layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in policy["layers"]]
        else:
            count = sum(1 for k in policy if re.fullmatch(r"w\d+", str(k)))
            try:
                layers = [(np.asarray(policy[f"w{i}"], np.float32), np.asarray(policy[f"b{i}"], np.float32))
                          for i in range(count)]
            except KeyError as err:
                raise ValueError(f"a dict of weight arrays needs w0, b0, w1, b1, ...; it lacks {err}") from None
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
        return layers, activation
    if hasattr(policy, "mlp_extractor") and hasattr(policy, "action_net"):
        from .export import actor_layers  # the Gridiron exporter's reader of an SB3 actor

        return actor_layers(policy)
    import torch

    if isinstance(policy, torch.nn.Linear):
        policy = torch.nn.Sequential(policy)
    if not isinstance(policy, torch.nn.Sequential):
        raise ValueError("policy must be an SB3 actor-critic policy, a torch.nn.Sequential MLP or a dict of "
                         f"weight arrays, got {type(policy).__name__}")
    modules = list(policy)
    layers, activation = [], None
    for i, module in enumerate(modules):
        if isinstance(module, torch.nn.Linear):
            if module.bias is None:
                raise ValueError("every Linear layer needs a bias")
            layers.append((module.weight.detach().cpu().numpy().T.astype(np.float32),
                           module.bias.detach().cpu().numpy().astype(np.float32)))
        elif isinstance(module, (torch.nn.Tanh, torch.nn.ReLU)):
            name = "tanh" if isinstance(module, torch.nn.Tanh) else "relu"
            if activation not in (None, name):
                raise ValueError("mixed activations cannot be exported")
            if i == 0 or not isinstance(modules[i - 1], torch.nn.Linear) or i == len(modules) - 1:
                raise ValueError("an activation must sit between two Linear layers (the last layer gives the logits)")
            activation = name
        else:
            raise ValueError(f"cannot export a {type(module).__name__} layer")
    return layers, activation or "tanh"


class GameBot:
    """One MLP over ``game.observe`` (the acting team's side) giving ``game.num_actions`` logits. Pure numpy.

    ``layers``: (W [in, out], b [out]) pairs; ``activation`` "tanh" / "relu"; ``game`` a registered name
    or a GameSpec. Shapes are checked against the game (GameBotFileError)."""

    def __init__(self, layers, activation: str, game, variant: str | None = None):
        self.game: GameSpec = get_game(game)
        if activation not in ACTIVATIONS:
            raise GameBotFileError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
        layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers]
        if not 1 <= len(layers) <= MAX_LAYERS:
            raise GameBotFileError(f"a net has 1 to {MAX_LAYERS} layers, got {len(layers)}")
        width = self.game.observation_size
        for i, (w, b) in enumerate(layers):
            if w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0]:
                raise GameBotFileError(f"layer {i} has shapes {w.shape} and {b.shape}; expected ({width}, n) "
                                       "and (n,)")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise GameBotFileError(f"layer {i} holds non-finite weights")
            width = w.shape[1]
        if width != self.game.num_actions:
            raise GameBotFileError(f"the net gives {width} logits; {self.game.name} has {self.game.num_actions} "
                                   "actions")
        self.layers = layers
        self.activation = activation
        self.variant = variant
        self.features_size = self.game.observation_size
        self.num_actions = self.game.num_actions

    # --- files -----------------------------------------------------------------------------------------

    def save(self, path) -> None:
        """Write the ``.npz`` file (``np.savez_compressed``: ``path`` gets ``.npz`` appended if it lacks it)."""
        arrays = {"format": np.array(FORMAT), "game": np.array(self.game.name),
                  "layout": np.array(layout_digest(self.game)), "features_size": np.array(self.features_size),
                  "num_actions": np.array(self.num_actions), "activation": np.array(self.activation),
                  "layers": np.array(len(self.layers))}
        if self.variant is not None:
            arrays["variant"] = np.array(str(self.variant))
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path, game=None) -> "GameBot":
        """Load a ``.npz`` game bot, checked as the module docstring says. ``game``: the game it must be a
        bot of (a name or a GameSpec; default: the registered game the file names)."""
        try:
            data, name = read_bot_file(path)
        except GameBotFileError:
            raise
        except BotFileError as err:
            raise GameBotFileError(str(err)) from None
        arrays = {}
        for key, blob in _npz_members(data, name).items():
            try:
                arrays[key] = _read_checked_array(blob, name, key, _field_for(key))
            except BotFileError as err:
                raise GameBotFileError(str(err)) from None
        for field in FIELDS:
            if field.required and field.key not in arrays:
                raise GameBotFileError(f"{name} lacks the array {field.key!r} ({field.what})")
        count = arrays["layers"]
        for i in range(count):
            for part in "wb":
                if f"{part}{i}" not in arrays:
                    raise GameBotFileError(f"{name} lacks the array '{part}{i}' (its net has {count} layers)")
        extra = sorted(k for k in arrays if re.fullmatch(_LAYER, k) and int(k[1:]) >= count)
        if extra:
            raise GameBotFileError(f"{name} holds {extra[0]!r} beyond its net's {count} layers")
        file_game = arrays["game"]
        if game is None:
            try:
                spec = get_game(file_game)
            except ValueError:
                raise GameBotFileError(f"{name} is a bot of the game {display_name(file_game)[:64]!r}, which is "
                                       "not a registered game") from None
        else:
            spec = get_game(game)
            if file_game != spec.name:
                raise GameBotFileError(f"{name} is a bot of {display_name(file_game)[:64]!r}, not of {spec.name}")
        if arrays["features_size"] != spec.observation_size or arrays["num_actions"] != spec.num_actions:
            raise GameBotFileError(f"{name} expects {arrays['features_size']} features and {arrays['num_actions']} "
                                   f"actions; {spec.name} has {spec.observation_size} and {spec.num_actions}")
        if arrays["layout"] != layout_digest(spec):
            raise GameBotFileError(f"{name} was made for another observation layout or action set of {spec.name} "
                                   "(its layout digest differs): export it again")
        try:
            return cls([(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)], arrays["activation"], spec,
                       variant=arrays.get("variant"))
        except GameBotFileError as err:
            raise GameBotFileError(f"{name}: {err}") from None

    # --- inference -------------------------------------------------------------------------------------

    def logits(self, observation) -> np.ndarray:
        """float32 [batch, num_actions]: the raw logits."""
        x = np.atleast_2d(np.asarray(observation, dtype=np.float32))
        if x.ndim != 2 or x.shape[1] != self.features_size:
            raise ValueError(f"observation must be [batch, {self.features_size}], got shape {x.shape}")
        return mlp_forward(self.layers, self.activation, x).astype(np.float32, copy=False)

    def act(self, observation, action_mask, temperature: float = 0.0, uniforms=None, rng=None) -> np.ndarray:
        """int64 [batch]: a legal action per row (see :func:`masked_choice`)."""
        return masked_choice(self.logits(observation), action_mask, temperature, uniforms, rng)


def _check_format_first(archive, infos, name: str) -> None:
    """A file of another format (a Gridiron bot, say) is named as such before its arrays are judged."""
    info = next((i for i in infos if i.filename == "format.npy"), None)
    if info is None or info.file_size > 1024 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        return  # the checks below report it
    try:
        with archive.open(info) as f:
            blob = f.read(1025)
        value = _read_checked_array(blob, name, "format", Field("format", "U", 0, "the format name"))
    except Exception:  # noqa: BLE001 - damaged: the member checks below report it
        return
    if value != FORMAT:
        raise GameBotFileError(f"{name} has the format {display_name(value)[:64]!r}, not {FORMAT!r}: it is not a "
                               "game bot")


def _npz_members(data: bytes, name: str) -> dict[str, bytes]:
    """The raw ``.npy`` bytes of each array, the zip directory checked before anything is decompressed."""
    if data.startswith(b"\x93NUMPY"):
        raise GameBotFileError(f"{name} is a bare .npy array, not a .npz game bot (write bots with GameBot.save)")
    if not data.startswith(b"PK"):
        raise GameBotFileError(f"{name} is not a readable .npz game bot: it is not a zip archive")
    try:  # zipfile raises many types on damaged bytes: each means the same here
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except Exception as err:  # noqa: BLE001
        raise GameBotFileError(f"{name} is not a readable .npz game bot: {short_reason(err)}") from None
    _check_format_first(archive, infos, name)
    if len(infos) > _MAX_MEMBERS:
        raise GameBotFileError(f"{name} holds {len(infos)} arrays; a game bot holds at most {_MAX_MEMBERS}")
    keys, total = [], 0
    for info in infos:
        key = info.filename[:-4] if info.filename.endswith(".npy") else None
        if key is None or _field_for(key) is None:
            raise GameBotFileError(f"{name} holds {display_name(info.filename)!r}, which is not an array of a "
                                   f"{FORMAT} file")
        if key in keys:
            raise GameBotFileError(f"{name} holds the array {key!r} twice")
        if info.flag_bits & 0x1:
            raise GameBotFileError(f"{name}: the array {key!r} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise GameBotFileError(f"{name}: the array {key!r} uses compression method {info.compress_type}; "
                                   "a game bot is stored or deflated")
        if info.file_size > MAX_MEMBER_BYTES:
            raise GameBotFileError(f"{name}: the array {key!r} claims {info.file_size} bytes uncompressed; at "
                                   f"most {MAX_MEMBER_BYTES}")
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise GameBotFileError(f"{name}: its arrays claim more than {MAX_TOTAL_BYTES} bytes uncompressed")
        keys.append(key)
    if "format" not in keys:
        raise GameBotFileError(f"{name} is not a {FORMAT} file: it lacks the array 'format'")
    members = {}
    for key, info in zip(keys, infos):
        try:
            with archive.open(info) as f:
                blob = f.read(MAX_MEMBER_BYTES + 1)
        except Exception as err:  # noqa: BLE001 - damaged data
            raise GameBotFileError(f"{name} is not a readable .npz game bot: the array {key!r} is damaged "
                                   f"({short_reason(err)})") from None
        if len(blob) > MAX_MEMBER_BYTES or len(blob) != info.file_size:
            raise GameBotFileError(f"{name}: the array {key!r} unpacks to {len(blob)} bytes, not the "
                                   f"{info.file_size} its directory entry claims")
        members[key] = blob
    return members


# --------------------------------------------------------------------------------------------- export

def export_npz(policy, path, game, variant: str | None = None) -> GameBot:
    """Write the numpy game bot of ``policy`` (see :func:`policy_layers`) to ``path``; returns the GameBot."""
    layers, activation = policy_layers(policy)
    bot = GameBot(layers, activation, game, variant=variant)
    bot.save(path)
    return bot


def _torch_module(layers, activation: str):
    """A torch module (observation, action_mask) -> (action, logits) with the given numpy weights."""
    import torch

    from train.export import torch_net

    net, _ = torch_net(layers, activation)

    class GamePolicy(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, observation, action_mask):
            logits = self.net(observation)
            masked = torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))
            return masked.argmax(dim=1), logits

    return GamePolicy().eval()


def export_onnx(policy, path, game, variant: str | None = None) -> None:
    """Write one self-contained ONNX file of ``policy`` (see the module docstring; needs torch, onnx,
    onnxscript: ``gridiron_env.extras.MissingExtra`` otherwise). The graph is built from the same weights as
    the numpy file, so both choose alike."""
    import torch

    from .export import quiet_onnx_export, require_onnx_export

    require_onnx_export()
    import onnx

    spec = get_game(game)
    layers, activation = policy_layers(policy)
    GameBot(layers, activation, spec)  # the same shape checks as the numpy file
    module = _torch_module(layers, activation)
    observation = torch.zeros((2, spec.observation_size), dtype=torch.float32)
    mask = torch.ones((2, spec.num_actions), dtype=torch.float32)
    batch = torch.export.Dim("batch")
    with torch.no_grad(), quiet_onnx_export():
        torch.onnx.export(module, (observation, mask), str(path), input_names=["observation", "action_mask"],
                          output_names=["action", "logits"],
                          dynamic_shapes={"observation": {0: batch}, "action_mask": {0: batch}},
                          external_data=False, dynamo=True, verbose=False)
    model = onnx.load(str(path))
    props = {"format": FORMAT, "game": spec.name, "layout": layout_digest(spec)}
    if variant is not None:
        props["variant"] = str(variant)
    onnx.helper.set_model_props(model, props)
    onnx.save(model, str(path))


def export_policy(policy, path, game, *, onnx_path=None, variant: str | None = None) -> GameBot:
    """Export a trained policy of ``game`` for play: the numpy bot file at ``path`` and, if ``onnx_path``
    is given, the ONNX file there. This is the call for a trainer (e.g. ``train.games``).

    ``policy``: what :func:`policy_layers` reads: a MaskablePPO / PPO ``model.policy`` with the default
    ``MlpPolicy`` (flatten extractor, ``net_arch`` of Tanh or ReLU layers), a ``torch.nn.Sequential`` MLP,
    or a dict of weight arrays. The net must take ``game.observe`` from the acting team's side (both seats
    share it) and give ``game.num_actions`` logits. ``game``: a registered name or a GameSpec. ``variant``:
    recorded in the files (informative). Returns the :class:`GameBot` written (load it back with
    :meth:`GameBot.load`; play it with ``gridiron_env.adapters.agents.NetAgent`` or the spec ``bot:PATH``).
    Raises ValueError (a GameBotFileError for a net whose shapes do not fit the game) before writing."""
    layers, activation = policy_layers(policy)
    bot = GameBot(layers, activation, game, variant=variant)
    bot.save(path)
    if onnx_path is not None:
        export_onnx({"layers": layers, "activation": activation}, onnx_path, game, variant=variant)
    return bot


# --------------------------------------------------------------------------------------------- ONNX runtime

def _onnx_bot_class():
    from .export import OnnxBot

    return OnnxBot


class GameOnnxBot:
    """An exported ONNX game bot run by onnxruntime (imported lazily), checked on load: the file like a
    numpy bot file (size cap), the onnx checker, the signature of :func:`export_onnx` for this game's sizes,
    the metadata (format, game, layout digest) and a probe run in which the only legal action must be
    chosen. Any failure raises GameBotFileError naming the file."""

    def __init__(self, path, game="table_football"):
        self.game = get_game(game)
        OnnxBot = _onnx_bot_class()
        try:
            self.runtime = OnnxBot(path, features_size=self.game.observation_size,
                                   num_actions=self.game.num_actions)
        except GameBotFileError:
            raise
        except BotFileError as err:
            raise GameBotFileError(str(err)) from None
        self.name = self.runtime.name
        self.features_size = self.game.observation_size
        self.num_actions = self.game.num_actions
        meta = dict(self.runtime.session.get_modelmeta().custom_metadata_map)
        if meta.get("format") != FORMAT:
            raise GameBotFileError(f"{self.name} is not a {FORMAT} ONNX file (its metadata names no such format)")
        if meta.get("game") != self.game.name:
            raise GameBotFileError(f"{self.name} is a bot of {display_name(meta.get('game', '?'))[:64]!r}, not of "
                                   f"{self.game.name}")
        if meta.get("layout") != layout_digest(self.game):
            raise GameBotFileError(f"{self.name} was made for another observation layout or action set of "
                                   f"{self.game.name}: export it again")
        self.variant = meta.get("variant")

    def run(self, observation, action_mask):
        """(actions int64 [batch], logits float32 [batch, A]); GameBotFileError if the graph fails."""
        observation = np.asarray(observation, dtype=np.float32)
        if observation.ndim != 2 or observation.shape[1] != self.features_size:
            raise ValueError(f"observation must be [batch, {self.features_size}], got shape {observation.shape}")
        try:
            return self.runtime.run(observation, np.asarray(action_mask, dtype=np.float32))
        except GameBotFileError:
            raise
        except BotFileError as err:
            raise GameBotFileError(str(err)) from None

    def act(self, observation, action_mask, temperature: float = 0.0, uniforms=None, rng=None) -> np.ndarray:
        """int64 [batch]: the graph's action (temperature 0) or a sample from its logits."""
        action, logits = self.run(np.atleast_2d(observation), np.atleast_2d(action_mask))
        if not temperature > 0:
            return action.astype(np.int64)
        return masked_choice(logits, action_mask, temperature, uniforms, rng)


