"""Sports Dice settings (RULINGS-sports-dice.md): the dice faces, the target score and the cap on rolls."""

from __future__ import annotations

from dataclasses import dataclass

from ..small_games.config import ConfigRecord, int_field
from .state import DEFENCE_SYMBOLS, OFFENCE_SYMBOLS, SYMBOL_NAMES, SYMBOL_SHORT

MAX_FACES = 12  # faces of a die; 12**6 rolls of a side keep the roll tables small and one draw exact


_ALIASES = {short.lower(): name for short, name in zip(SYMBOL_SHORT, SYMBOL_NAMES)}  # "TD" -> "touchdown"


def _faces(field: str, value, allowed: tuple) -> tuple:
    """A face table as a tuple of canonical symbol names (case and spacing forgiven, the short names of
    SYMBOL_SHORT accepted: "FG", "TD", "NG", "SK", "TO", "P6"), or ValueError."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise ValueError(f"SportsDiceConfig.{field} must be a tuple of 1-{MAX_FACES} face names from "
                         f"{list(allowed)}, got {value!r}")
    if not (1 <= len(value) <= MAX_FACES):
        raise ValueError(f"SportsDiceConfig.{field} must have 1-{MAX_FACES} faces, got {len(value)}")
    out = []
    for i, face in enumerate(value):
        name = " ".join(face.lower().split()) if isinstance(face, str) else None
        name = _ALIASES.get(name, name)
        if name not in allowed:
            raise ValueError(f"SportsDiceConfig.{field}[{i}] must be one of {list(allowed)}, got {face!r}")
        out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class SportsDiceConfig(ConfigRecord):
    """Settings of a Sports Dice game. Every field is validated; a bad value raises ValueError naming it.

    offence_faces: the faces of each offence die (ruling 1), 1-12 names from OFFENCE_SYMBOLS
        ("10", "20", "field goal", "touchdown"); each face equally likely. Lists are kept as tuples.
    defence_faces: the faces of each defence die, 1-12 names from DEFENCE_SYMBOLS
        ("no gain", "sack", "turnover", "pick six").
    target_score: points that win at once (ruling 16), 1-99.
    max_rolls: rolls (play rolls, punts and field-goal attempts) before the game is truncated with no
        winner (ruling 16), 1-1,000,000.
    """

    offence_faces: tuple = ("10", "10", "20", "20", "field goal", "touchdown")
    defence_faces: tuple = ("no gain", "no gain", "sack", "sack", "turnover", "pick six")
    target_score: int = 21
    max_rolls: int = 1000

    def __post_init__(self):
        object.__setattr__(self, "offence_faces", _faces("offence_faces", self.offence_faces, OFFENCE_SYMBOLS))
        object.__setattr__(self, "defence_faces", _faces("defence_faces", self.defence_faces, DEFENCE_SYMBOLS))
        for name, low, high in (("target_score", 1, 99), ("max_rolls", 1, 1_000_000)):
            object.__setattr__(self, name, int(int_field(self, name, low, high)))

    @property
    def offence_face_codes(self) -> tuple:
        """The offence faces as symbol codes 0-3 (``state.SYMBOL_NAMES`` order)."""
        return tuple(OFFENCE_SYMBOLS.index(f) for f in self.offence_faces)

    @property
    def defence_face_codes(self) -> tuple:
        """The defence faces as symbol codes 0-3 of the defence (add 4 for ``state.SYMBOL_NAMES``)."""
        return tuple(DEFENCE_SYMBOLS.index(f) for f in self.defence_faces)
