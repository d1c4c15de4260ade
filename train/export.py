"""Export a trained offence and defence policy pair: a numpy ``.npz`` bot and one ONNX file.

The policies are stable-baselines3 / sb3-contrib actor-critic policies over the ``features`` observation
with an MLP actor (``mlp_extractor.policy_net`` of Linear + activation layers, then ``action_net``).
The ONNX graph takes ``observation`` float32 [batch, F] and ``action_mask`` float32 [batch, A] (1 legal,
0 not) and gives ``action`` int64 [batch] (always legal) and ``logits`` float32 [batch, A] (raw logits of
the net chosen by each row's ``on_offence`` feature).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.bot import MASKED_LOGIT, Bot
from gridiron_env.core.actions import NUM_ACTIONS
from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURES_SIZE

ON_OFFENCE_INDEX = FEATURE_LAYOUT["on_offence"][0].start


def actor_layers(policy) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The actor's linear layers as (W [in, out], b [out]) float32 arrays, and the activation name."""
    import torch

    extractor = policy.features_extractor
    if not isinstance(extractor, torch.nn.Flatten) and type(extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"only a flatten features extractor can be exported, got {type(extractor).__name__}")
    layers, activation = [], None
    for module in list(policy.mlp_extractor.policy_net) + [policy.action_net]:
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
    """Write one ONNX file for the pair (needs torch, onnx and onnxscript)."""
    import torch

    module = _PairModule.build(offence_policy, defence_policy)
    observation = torch.zeros((2, FEATURES_SIZE), dtype=torch.float32)
    mask = torch.ones((2, NUM_ACTIONS), dtype=torch.float32)
    batch = torch.export.Dim("batch")
    with torch.no_grad():
        torch.onnx.export(
            module, (observation, mask), str(path), input_names=["observation", "action_mask"],
            output_names=["action", "logits"], dynamic_shapes={"observation": {0: batch}, "action_mask": {0: batch}},
            external_data=False, dynamo=True)


class OnnxBot:
    """The exported ONNX pair run by onnxruntime (imported lazily)."""

    def __init__(self, path):
        import onnxruntime

        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no ONNX bot at {path}")
        try:
            self.session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime raises its own error types for corrupt graphs
            raise ValueError(f"{path} is not a loadable ONNX bot: {err}") from None
        names = [i.name for i in self.session.get_inputs()]
        if names != ["observation", "action_mask"]:
            raise ValueError(f"{path} has inputs {names}, expected ['observation', 'action_mask']")

    def run(self, observation, action_mask):
        """(actions int64 [batch], logits float32 [batch, A])."""
        action, logits = self.session.run(None, {
            "observation": np.asarray(observation, dtype=np.float32),
            "action_mask": np.asarray(action_mask, dtype=np.float32)})
        return action, logits
