"""Export a trained offence and defence policy pair: a numpy ``.npz`` bot and one ONNX file.

The policies are stable-baselines3 / sb3-contrib actor-critic policies over the ``features`` observation
with an MLP actor (``mlp_extractor.policy_net`` of Linear + activation layers, then ``action_net``).
The ONNX graph takes ``observation`` float32 [batch, F] and ``action_mask`` float32 [batch, A] (1 legal,
0 not) and gives ``action`` int64 [batch] (always legal) and ``logits`` float32 [batch, A] (raw logits of
the net chosen by each row's ``on_offence`` feature).
"""

from __future__ import annotations

import contextlib
import logging
import warnings

import numpy as np

from agents.bot import MASKED_LOGIT, Bot, BotFileError, read_bot_file, short_reason
from gridiron_env.core.actions import NUM_ACTIONS
from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURE_LAYOUT_SIZES, FEATURES_SIZE

ON_OFFENCE_INDEX = FEATURE_LAYOUT["on_offence"][0].start


def actor_layers(policy) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The actor's linear layers as (W [in, out], b [out]) float32 arrays, and the activation name."""
    import torch

    extractor = policy.features_extractor
    if not isinstance(extractor, torch.nn.Flatten) and type(extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"only a flatten features extractor can be exported, got {type(extractor).__name__}")
    layers, activation = [], None
    for module in _actor_modules(policy):
        if isinstance(module, torch.nn.Linear):
            layers.append((module.weight.detach().cpu().numpy().T.copy(), module.bias.detach().cpu().numpy().copy()))
        elif isinstance(module, (torch.nn.Tanh, torch.nn.ReLU)):
            name = "tanh" if isinstance(module, torch.nn.Tanh) else "relu"
            if activation not in (None, name):
                raise ValueError("mixed activations cannot be exported")
            activation = name
        else:
            raise ValueError(f"cannot export a {type(module).__name__} layer")
    return layers, activation or "tanh"


def load_actor(policy, layers: list[tuple[np.ndarray, np.ndarray]], activation: str) -> None:
    """Copy a bot net's layers (W [in, out], b [out], as ``actor_layers`` gives them) into ``policy``'s
    actor, which must have the same widths and activation; the critic is left as it is. Raises ValueError
    naming the first layer that does not fit."""
    import torch

    own, own_activation = actor_layers(policy)
    if activation != own_activation:
        raise ValueError(f"the bot's activation is {activation!r}, the policy's {own_activation!r}")
    if len(layers) != len(own):
        raise ValueError(f"the bot's net has {len(layers)} layers, the policy's actor {len(own)}")
    for i, ((w, b), (own_w, own_b)) in enumerate(zip(layers, own)):
        if w.shape != own_w.shape or b.shape != own_b.shape:
            raise ValueError(f"layer {i} of the bot's net is {list(w.shape)}, the policy's {list(own_w.shape)}")
    for module, (w, b) in zip(_actor_linears(policy), layers):
        _set_linear(module, w, b)


def _set_linear(module, w, b) -> None:
    """Copy a bot layer (W [in, out], b [out]) into a torch Linear (weight [out, in])."""
    import torch

    with torch.no_grad():
        module.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T, dtype=np.float32)))
        module.bias.copy_(torch.from_numpy(np.asarray(b, dtype=np.float32)))


def torch_net(layers, activation: str):
    """A torch ``Sequential`` of a bot net's ``layers`` (W [in, out], b [out]) with ``activation`` between
    them, its weights copied in; returns (net, its Linear layers in order)."""
    import torch

    modules, linears = [], []
    for i, (w, b) in enumerate(layers):
        linear = torch.nn.Linear(w.shape[0], w.shape[1])
        _set_linear(linear, w, b)
        modules.append(linear)
        linears.append(linear)
        if i < len(layers) - 1:
            modules.append(torch.nn.Tanh() if activation == "tanh" else torch.nn.ReLU())
    return torch.nn.Sequential(*modules), linears


def linear_layers(linears) -> list[tuple[np.ndarray, np.ndarray]]:
    """The bot-file layers (W [in, out], b [out], float32) of torch Linear layers."""
    return [(linear.weight.detach().numpy().T.copy(), linear.bias.detach().numpy().copy()) for linear in linears]


def actor_parameters(policy) -> list:
    """The actor's parameters (``mlp_extractor.policy_net`` and ``action_net``): what a critic-only round
    freezes."""
    return [p for module in _actor_linears(policy) for p in module.parameters()]


def _actor_linears(policy) -> list:
    """The actor's Linear layers in order (its activations have no parameters)."""
    import torch

    return [m for m in _actor_modules(policy) if isinstance(m, torch.nn.Linear)]


def _actor_modules(policy) -> list:
    return list(policy.mlp_extractor.policy_net) + [policy.action_net]


def to_bot(offence_policy, defence_policy) -> Bot:
    offence, act_o = actor_layers(offence_policy)
    defence, act_d = actor_layers(defence_policy)
    if act_o != act_d:
        raise ValueError("the offence and defence nets must share one activation")
    return Bot(offence, defence, act_o, ON_OFFENCE_INDEX, FEATURES_SIZE, NUM_ACTIONS)


def export_npz(offence_policy, defence_policy, path) -> Bot:
    """Write the numpy bot file; returns the Bot."""
    bot = to_bot(offence_policy, defence_policy)
    bot.save(path)
    return bot


class _PairModule:
    """Builds the torch module for ONNX lazily (torch imported only when exporting)."""

    @staticmethod
    def build(offence_policy, defence_policy):
        import torch

        class Pair(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.offence = torch.nn.Sequential(offence_policy.mlp_extractor.policy_net, offence_policy.action_net)
                self.defence = torch.nn.Sequential(defence_policy.mlp_extractor.policy_net, defence_policy.action_net)

            def forward(self, observation, action_mask):
                on_offence = observation[:, ON_OFFENCE_INDEX:ON_OFFENCE_INDEX + 1] > 0.5
                logits = torch.where(on_offence, self.offence(observation), self.defence(observation))
                masked = torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))
                return masked.argmax(dim=1), logits

        return Pair().eval()


def export_onnx(offence_policy, defence_policy, path) -> None:
    """Write one ONNX file for the pair (needs torch and the ``export`` extra: onnx, onnxscript;
    ``gridiron_env.extras.MissingExtra`` otherwise)."""
    import torch

    require_onnx_export()
    module = _PairModule.build(offence_policy, defence_policy)
    observation = torch.zeros((2, FEATURES_SIZE), dtype=torch.float32)
    mask = torch.ones((2, NUM_ACTIONS), dtype=torch.float32)
    batch = torch.export.Dim("batch")
    with torch.no_grad(), quiet_onnx_export():
        torch.onnx.export(
            module, (observation, mask), str(path), input_names=["observation", "action_mask"],
            output_names=["action", "logits"], dynamic_shapes={"observation": {0: batch}, "action_mask": {0: batch}},
            external_data=False, dynamo=True, verbose=False)


def require_onnx_export() -> None:
    """MissingExtra (one line naming the ``export`` extra) unless onnx and onnxscript are installed."""
    from gridiron_env.extras import require

    for module in ("onnx", "onnxscript"):
        require(module, "the ONNX export")


class _DropTorchvisionNotice(logging.Filter):
    def filter(self, record) -> bool:
        return not str(record.msg).startswith("torchvision is not installed")


# The exporter's notices that say nothing about our graph: torch.export's own deprecated LeafSpec (torch
# 2.13), and the batch axis both inputs share (named once, as intended).
_EXPORT_WARNINGS = ((FutureWarning, r"`isinstance\(treespec, LeafSpec\)` is deprecated"),
                    (UserWarning, r"# The axis name: .* will not be used, since it shares"))
_REGISTRATION_LOGGER = "torch.onnx._internal.exporter._registration"


@contextlib.contextmanager
def quiet_onnx_export():
    """Around ``torch.onnx.export(..., dynamo=True, verbose=False)``: drops the exporter's chatter that is
    not about the model (its torchvision-ops notice and the warnings of ``_EXPORT_WARNINGS``); any other
    warning or log record still shows."""
    logger = logging.getLogger(_REGISTRATION_LOGGER)
    notice = _DropTorchvisionNotice()
    logger.addFilter(notice)
    try:
        with warnings.catch_warnings():
            for category, message in _EXPORT_WARNINGS:
                warnings.filterwarnings("ignore", message=message, category=category)
            yield
    finally:
        logger.removeFilter(notice)


class OnnxBot:
    """The exported ONNX pair run by onnxruntime (imported lazily).

    Loading checks the file like a numpy bot file (``agents.bot.read_bot_file``), parses it (with ``onnx``'s
    checker when installed), then requires the signature of :func:`export_onnx` - inputs ``observation``
    float [batch, F] and ``action_mask`` float [batch, A], outputs ``action`` int64 [batch] and ``logits``
    float [batch, A], batch dynamic - and a probe run in which the only legal action must be chosen. Any
    failure, now or in :meth:`run`, raises BotFileError naming the file."""

    INPUTS = (("observation", "tensor(float)", "features"), ("action_mask", "tensor(float)", "actions"))
    OUTPUTS = (("action", "tensor(int64)", None), ("logits", "tensor(float)", "actions"))

    def __init__(self, path, features_size: int | None = None, num_actions: int | None = None):
        from gridiron_env.extras import require

        onnxruntime = require("onnxruntime", "an ONNX bot")  # MissingExtra naming the export extra

        data, self.name = read_bot_file(path)
        self.features_size = FEATURES_SIZE if features_size is None else int(features_size)
        self.num_actions = NUM_ACTIONS if num_actions is None else int(num_actions)
        _check_onnx_model(data, self.name)
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 4  # fatal only: a refused model is reported once, by BotFileError
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # onnxruntime raises its own, unrelated error types (Fail, InvalidGraph, InvalidArgument, ...) for
        # corrupt or unsupported graphs: each means the file cannot be a bot.
        try:
            self.session = onnxruntime.InferenceSession(data, sess_options=options,
                                                        providers=["CPUExecutionProvider"])
            signature = ([(i.name, i.type, i.shape) for i in self.session.get_inputs()],
                         [(o.name, o.type, o.shape) for o in self.session.get_outputs()])
        except Exception as err:  # noqa: BLE001 - see above
            raise BotFileError(f"{self.name} is not a loadable ONNX bot: {short_reason(err)}") from None
        if features_size is None:  # a bot of an earlier observation layout (a prefix of this one) fits too
            declared = signature[0][0][2] if signature[0] and signature[0][0][0] == "observation" else None
            width = declared[1] if declared is not None and len(declared) == 2 else None
            if width in FEATURE_LAYOUT_SIZES:
                self.features_size = width
        self._check_signature(*signature)
        self._probe()

    def _check_signature(self, inputs, outputs) -> None:
        sizes = {"features": self.features_size, "actions": self.num_actions}
        for side, found, wanted in (("inputs", inputs, self.INPUTS), ("outputs", outputs, self.OUTPUTS)):
            names = [n for n, _, _ in found]
            if names != [n for n, _, _ in wanted]:
                raise BotFileError(f"{self.name} has {side} {names}, expected {[n for n, _, _ in wanted]}")
            for (n, kind, shape), (_, want_kind, width) in zip(found, wanted):
                want_shape = "[batch]" if width is None else f"[batch, {sizes[width]}]"
                rank = 1 if width is None else 2
                ok = (kind == want_kind and shape is not None and len(shape) == rank
                      and not isinstance(shape[0], int) and (width is None or shape[1] == sizes[width]))
                if not ok:
                    raise BotFileError(f"{self.name}: {n!r} is {kind} {shape}; a bot's {n!r} is {want_kind} "
                                       f"{want_shape} with a dynamic batch")

    def _probe(self) -> None:
        """Two rows, each with one legal action: the bot must choose it."""
        observation = np.zeros((2, self.features_size), dtype=np.float32)
        observation[0, ON_OFFENCE_INDEX % self.features_size] = 1.0  # one row per net
        mask = np.zeros((2, self.num_actions), dtype=np.float32)
        only = np.array([self.num_actions - 1, self.num_actions // 2])
        mask[[0, 1], only] = 1.0
        self.run(observation, mask)

    def run(self, observation, action_mask):
        """(actions int64 [batch], logits float32 [batch, A]); BotFileError if the graph fails or its
        action is not legal."""
        observation = np.asarray(observation, dtype=np.float32)
        action_mask = np.asarray(action_mask, dtype=np.float32)
        if (observation.ndim == 2 and observation.shape[1] > self.features_size
                and {observation.shape[1], self.features_size} <= set(FEATURE_LAYOUT_SIZES)):
            observation = observation[:, :self.features_size]  # a later layout: this bot's is its prefix
        try:
            action, logits = self.session.run(None, {"observation": observation, "action_mask": action_mask})
        except Exception as err:  # noqa: BLE001 - onnxruntime's error types, as in __init__
            raise BotFileError(f"{self.name}: the ONNX bot failed to run: {short_reason(err)}") from None
        action, logits = np.asarray(action), np.asarray(logits)
        batch = observation.shape[0]
        if action.shape != (batch,) or action.dtype != np.int64 or logits.shape != (batch, self.num_actions):
            raise BotFileError(f"{self.name} gave action {action.dtype} {action.shape} and logits "
                               f"{logits.shape} for a batch of {batch}")
        legal = action_mask > 0.5
        rows = np.flatnonzero(legal.any(axis=1))
        chosen = action[rows]
        in_range = ((chosen >= 0) & (chosen < self.num_actions)).all()
        if not (in_range and legal[rows, chosen].all()):
            raise BotFileError(f"{self.name} chose an illegal action")
        return action, logits


def _check_onnx_model(data: bytes, name: str) -> None:
    """Parse and check the model with the ``onnx`` package when it is installed (a clearer refusal than
    onnxruntime's, before any session is built)."""
    try:
        import onnx
    except ImportError:
        return
    try:
        model = onnx.load_model_from_string(data)
        external = any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer)
        if not external:
            onnx.checker.check_model(model)
    except Exception as err:  # noqa: BLE001 - protobuf DecodeError, onnx ValidationError, ...: all mean corrupt
        raise BotFileError(f"{name} is not a loadable ONNX bot: {short_reason(err)}") from None
    if external:  # a path to read from, chosen by the file: refused (a bot is one self-contained file)
        raise BotFileError(f"{name} is not a loadable ONNX bot: its weights live in another file")
