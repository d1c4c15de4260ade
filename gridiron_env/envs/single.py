"""Gridiron's single-agent Gymnasium envs: one learner against an opponent policy, presets of the generic
single env (:class:`~gridiron_env.adapters.single.GameEnv`, the generic learner core with one game) over
Gridiron's GameSpecs.

- :class:`GridironEnv` (``gridiron_env/Gridiron-v0``): a whole game, over ``gridiron_env.gridiron.game.GAME``;
- :class:`GridironOffenceEnv`, :class:`GridironDefenceEnv`, :class:`GridironScenarioEnv` (and the scenario
  family ids): one drive per episode, over the drive spec (``gridiron_env.gridiron.drive.DRIVE``), their
  options mapped onto its config as the vector envs' (:mod:`gridiron_env.envs.vector`).

A lone env reset with seed s + i plays exactly like game i of the matching vector env reset with seed s
(given the same actions), and every option means the same in both.

Observation (option ``observation``): ``"features"``, float32 [FEATURES_SIZE] in [-1, 2], or ``"planes"``,
a dict of uint8 planes [C, 30, 18] and float32 scalars [SCALARS_SIZE]; always from the learner's side (its
team attacks "up"); see :mod:`gridiron_env.core.observe` for every slice. Action: ``Discrete(291)``, the
engine's action ids (:mod:`gridiron_env.core.actions`). ``info["action_mask"]`` is the learner's legal
actions as int8 [291]; once the episode is over (a further step is ignored) it marks only id 0, "end
turn", so a mask is never all zero (masked samplers need one legal id). ``action_masks()`` returns it as
bool (sb3-contrib). ``info["learner_team"]`` is the learner's agent name ("team_one" or "team_two").

Illegal actions: any int is accepted. An illegal one (or an int outside 0..290, or a bool: Python and
``Discrete`` count a bool as an int, but it is never an action id) ends the game as a loss for the
learner (the engine state shows the other team as winner) and ``info["illegal_action"] = {"action": the
action as given, "name": ..., "reason": ...}``; with ``illegal_action="raise"`` the step raises
:class:`~gridiron_env.core.IllegalActionError` (a ValueError) instead and changes nothing. An action
that is not one int (a float, a str, None, several values) is a ValueError and changes nothing.

The opponent (option ``opponent``) is any callable ``(observations, int8 masks) -> actions`` over a batch:
observations from the opponent's own side (the same form as the learner's; None for an opponent with
``needs_observation = False``), masks [k, 291], one int action per row. If it accepts a ``games=`` keyword
it also gets the indices of the games it acts in. The default, :class:`~gridiron_env.adapters.common.
RandomPolicy`, plays uniformly random legal actions from a per-episode stream drawn from the seed. An
illegal opponent action raises IllegalActionError (a bug in the opponent, not a win for the learner).

``reset(seed=s)``: any int s >= 0 (Python or numpy), taken modulo 2**64 (as the engine keys its games),
so seeds 0..2**64-1 are distinct; a negative or non-int seed is a ValueError. ``reset(options={"state":
s})`` starts from a given engine position (a State of one game); in the drive envs the learner then takes
the offence's (or defence's) seat of that position. ``reset(options={"scenario": name})`` starts this
episode from a named scenario of :data:`gridiron_env.SCENARIOS` (its open parts drawn from the episode
seed; an unknown name is a ValueError listing the allowed ones), and the ``scenario`` option of every env
starts every episode from it; in the drive envs the learner's team takes the offence's (or defence's) seat
of the scenario. ``options`` must be None or a dict.
"""

from __future__ import annotations

from ..adapters.single import GameEnv
from .vector import drive_options, scenario_drive

__all__ = ["GridironEnv", "GridironOffenceEnv", "GridironDefenceEnv", "GridironScenarioEnv"]


class GridironEnv(GameEnv):
    """``gridiron_env/Gridiron-v0``: the learner plays one team for a whole game against an opponent.

    Options: ``learner_team`` "one", "two" or "random" (drawn per episode from the seed); ``opponent`` (see
    the module doc; default uniformly random legal actions); ``observation`` "features" or "planes";
    ``illegal_action`` "lose" or "raise"; ``score_reward_scale`` (>= 0); ``config`` (a GameConfig or a dict
    of its fields); ``max_episode_steps`` (learner steps, then truncated); ``render_mode`` None, "ansi" or
    "rgb_array"; ``offence_up`` (render with the offence attacking up the picture); ``scenario`` (a name
    of :data:`gridiron_env.SCENARIOS`: every game starts from that position and plays on to its end).

    Reward: +1 when the learner's team wins, -1 when it loses (an illegal action included), 0 on
    truncation (``GameConfig.max_steps`` agent actions or ``max_episode_steps``), plus
    ``score_reward_scale * (change of own score - change of other score) / target_score`` each step. The
    learner plays every phase of its team's turns: the specials pick, formations, kick decisions, play.
    """

    def __init__(self, **options):
        # a preset of the generic env (gridiron_env.adapters.single.GameEnv) over Gridiron's GameSpec
        super().__init__(game="gridiron", **options)


_DRIVE_DOC = """

    One drive per episode. Start (option ``start``): "kickoff" (default: first-and-ten at the offence's
    kickoff spot, the 6th row out from its own goal line), "random" (LOS row uniform over the field of
    play, lane uniform over the hash band, drawn from the seed) or an int k in 4..27: the LOS on rulebook
    row k counted from the goal line the offence attacks (row 4 is the first row of the field of play
    next to that end zone, 27 the last next to its own), at the kickoff lane. ``learner_team`` ("one",
    "two", "random") is the learner's team. ``config`` defaults to ``GameConfig(specials=False)`` (a dict
    overrides fields of that default); with specials on, each team gets a random special at reset.
    ``scenario`` (a name of :data:`gridiron_env.SCENARIOS`, instead of ``start``): every drive starts from
    that scenario, the learner's team on this env's side.

    The episode terminates when the offence loses the ball: a touchdown, a field goal attempt, a punt, a
    turnover, a safety or a turnover on downs (a first down does not end it), or when the game ends.
    Reward: the points the learner's team scored in the drive minus the points the other team scored (a
    defensive touchdown or a safety counts against the offence), plus ``field_position_weight`` w times the
    value of the position the drive leaves: v = (rows the next offence must go to score, 1..24) / 24,
    +w*v for the team that did not get the ball next and -w*v for the team that did (0 if the game ended
    or the episode was truncated). The offence's and the defence's rewards for a drive sum to zero. An
    illegal action ends the episode with -(7 + w), the worst a drive can give, so breaking a rule never
    pays better than playing on. Other options as :class:`GridironEnv`.
    """


class _DrivePreset(GameEnv):
    """A Gridiron drive env as a preset of the generic env over the drive spec (``gridiron_env.gridiron.
    drive.DRIVE``): the learner on ``_SIDE``; the drive's settings are its config's."""

    _SIDE = "offence"

    def __init__(self, *, learner_team="random", opponent=None, observation="features", illegal_action="lose",
                 start="kickoff", field_position_weight=0.0, config=None, max_episode_steps=None,
                 render_mode=None, offence_up=False, scenario=None):
        super().__init__(game="gridiron_drive", variant=self._SIDE, learner_team=learner_team, opponent=opponent,
                         observation=observation, illegal_action=illegal_action,
                         max_episode_steps=max_episode_steps, render_mode=render_mode, offence_up=offence_up,
                         **drive_options(self._SIDE, start, field_position_weight, config, scenario))


class GridironOffenceEnv(_DrivePreset):
    __doc__ = "``gridiron_env/GridironOffence-v0``: the learner plays the offence of one drive." + _DRIVE_DOC
    _SIDE = "offence"


class GridironDefenceEnv(_DrivePreset):
    __doc__ = ("``gridiron_env/GridironDefence-v0``: the learner plays the defence of one drive (rewards "
               "from the defence's side)." + _DRIVE_DOC)
    _SIDE = "defence"


class GridironScenarioEnv(_DrivePreset):
    """``gridiron_env/GridironScenario-v0`` (``scenario=`` a name of :data:`gridiron_env.SCENARIOS`) and the
    family ids (:data:`gridiron_env.scenarios.FAMILY_IDS`, such as ``gridiron_env/GridironGoalLineStand-v0``):
    one drive per episode from the scenario, the learner on ``side`` ("offence" or "defence"; default the
    scenario's own side, ``Scenario.side``). ``family``: set by a family id, whose default scenario is the
    family's first; ``scenario=`` picks another of the same family. The open parts of the position are
    drawn from each episode's seed; with ``learner_team`` "one" or "two" the learner's team takes the
    learner's side. Rewards, the end of an episode and the other options as :class:`GridironOffenceEnv`
    (``start`` is the scenario's)."""

    def __init__(self, *, scenario=None, family=None, side=None, **options):
        sc, self._SIDE = scenario_drive(scenario, family, side)
        self.family = family
        super().__init__(scenario=sc.name, **options)
