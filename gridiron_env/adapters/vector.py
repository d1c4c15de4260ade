"""The learner core and the natively batched Gymnasium ``VectorEnv``, for any game of the protocol.

:class:`LearnerCore` holds N games in one engine state with one learner seat each; the opponent policy
plays the other seat inside the env, in batch (one engine step per round over the games where it is to
act). An episode is a whole game. Reward: +1 to the learner when its team wins, -1 when it loses (an
illegal action of the learner included), 0 for a draw and on truncation (the game's own cap, or
``max_episode_steps`` learner steps). Observations (``game.observe``) and masks are the learner's.

Seeding: slot i has a base seed b (``s + i`` after ``reset(seed=s)``) and an episode count k; episode 0
plays the game seeded b, later ones a seed drawn from (b, k), so autoresets of slot i and ``reset()``
calls of a lone env seeded s + i play the same episodes. The learner's team (when ``"random"``) and the
default opponent's stream are drawn from the episode seed too. Each of the three draws has its salt in
``game.salts`` (:class:`~gridiron_env.protocol.EnvSalts`), so a game can replay another env's episodes. The single env (:mod:`.single`) is this
core with N = 1, so game i of a batch seeded s equals a lone env seeded s + i by construction.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..protocol import GameSpec, get_game
from .common import (
    AGENTS, ILLEGAL_ACTION_MODES, LEARNER_TEAMS, RENDER_MODES, batch_actions, check_choice, check_offence_up,
    check_options, check_positive_int, check_render_mode, check_score_scale, check_seed, episode_seeds,
    RandomPolicy, forfeit_note, get_scenario, illegal_entry, index_obs, learner_teams, make_policy, masks_for, new_games,
    observation_encoder, scenario_groups, scenario_of, scenario_option,
)

__all__ = ["LearnerCore", "GameVectorEnv", "parse_autoreset_mode", "expand_infos"]

_AGENT_NAMES = np.array(AGENTS, dtype=object)
_SLOT = np.array([0])  # the one slot of a lone env
# Games of a batch stepped apart from the rest are taken out as a sub-batch (and put back) only when that
# leaves out at least this many and most of the batch: taking and putting costs two calls per state
# field, a few idle games riding along in a masked step cost the engine little more than their rows.
_MIN_COMPACTION = 128


def parse_autoreset_mode(value) -> AutoresetMode:
    if isinstance(value, AutoresetMode):
        return value
    if isinstance(value, str):
        key = value.lower().replace("_", "")
        for mode in AutoresetMode:
            if key in (mode.value.lower(), mode.name.lower().replace("_", "")):
                return mode
    raise ValueError(f"autoreset_mode must be an AutoresetMode or one of {[m.value for m in AutoresetMode]}, "
                     f"got {value!r}")


def observation_space(game: GameSpec, kind: str = "features"):
    """One game's observation space of ``kind`` ("features": a float32 Box; else the game's own kind's)."""
    observation_encoder(game, kind)  # checks the name
    if kind != "features":
        return game.observation_kinds[kind].space()
    low, high = game.observation_bounds
    return spaces.Box(low, high, (game.observation_size,), np.float32)


class LearnerCore:
    """N whole games with one learner seat each (see the module doc).

    After :meth:`reset` / :meth:`step`: ``reward`` float32 [N] (of the last step), ``terminated`` /
    ``truncated`` bool [N] (the slot's episode is over), ``illegal`` object [N] (the illegal-action info of
    games the learner lost that way in the last step, else None), ``forfeit_winner`` int64 [N] (the team
    that won by the other's illegal action, -1 none).
    """

    def __init__(self, num_games, *, game="table_football", variant="basic", learner_team="random",
                 opponent=None, illegal_action="lose", config=None, max_episode_steps=None, scenario=None,
                 observation="features", score_reward_scale=0.0, offence_up=False):
        self.game = get_game(game)
        # every episode (autoresets included) starts from this named position unless a reset names another
        self.scenario = None if scenario is None else get_scenario(self.game, scenario)
        self.n = check_positive_int("num_envs", num_games)
        check_choice("learner_team", learner_team, LEARNER_TEAMS)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.config = self.game.make_config(config, variant)
        self.variant = variant
        self.learner_team = learner_team
        self.illegal_action = illegal_action
        self.observation_kind = observation
        self._encode = observation_encoder(self.game, observation)
        self.score_reward_scale = check_score_scale(self.game, score_reward_scale)
        self.offence_up = check_offence_up(self.game, offence_up)
        self.salts = self.game.salts  # this game's streams for episodes, learner seats and the opponent
        self.opponent = make_policy(opponent, self.salts.opponent)
        self.max_episode_steps = check_positive_int("max_episode_steps", max_episode_steps, allow_none=True)
        n = self.n
        self.state = None
        self.learner = np.zeros(n, dtype=np.int64)
        self.base_seed = np.zeros(n, dtype=np.uint64)
        self.episode = np.zeros(n, dtype=np.uint64)
        self.elapsed = np.zeros(n, dtype=np.int64)
        # float32, as the policies train on them (a shaped reward is rounded once, here)
        self.reward = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self.illegal = np.full(n, None, dtype=object)
        self.forfeit_winner = np.full(n, -1, dtype=np.int64)
        self.single_observation_space = observation_space(self.game, observation)
        self.single_action_space = spaces.Discrete(self.game.num_actions)

    @property
    def started(self) -> bool:
        return self.state is not None

    # --- reset -------------------------------------------------------------------------------------------

    def _start_episodes(self, games, seeds=None, state=None, scenario=None) -> None:
        """:meth:`reset` up to the opponent's opening turns (which the caller then plays)."""
        game = self.game
        if scenario is not None and state is not None:
            raise ValueError("give options['state'] or options['scenario'], not both")
        # validated before anything changes
        groups = scenario_groups(scenario, games.size, self.scenario, lambda name: get_scenario(game, name))
        if seeds is not None:
            self.base_seed[games] = np.asarray(seeds, dtype=np.uint64)
            self.episode[games] = 0
        else:
            self.episode[games] += np.uint64(1)
        e = episode_seeds(self.base_seed[games], self.episode[games], self.salts.episode)
        learner = learner_teams(self.learner_team, e, self.salts.learner)
        if state is not None:
            state = self.lift_state(state)
            if game.batch_size(state) != games.size:
                raise ValueError(f"options['state'] must be a {game.state_class.__name__} of {games.size} "
                                 f"game(s), got {state!r}")
            try:
                game.check_invariants(state, self.config)
            except Exception as err:  # the engine's own message says which game and why
                raise ValueError(f"options['state'] is not a valid position of this config: {err}") from err
            new = game.copy(state)
            if game.learner_seat is not None:  # the position seats the learner (GameSpec.learner_seat)
                learner = np.asarray(game.learner_seat(new, self.config), dtype=np.int64)
        elif len(groups) == 1 and groups[0][1].size == games.size:  # one scenario for every slot
            new = new_games(game, e, self.config, groups[0][0], learner)
        else:
            new = new_games(game, e, self.config, learner=learner)
            for sc, rows in groups:
                game.put(new, rows, new_games(game, e[rows], self.config, sc, learner[rows]))
        if self.state is None:
            if games.size != self.n:
                raise RuntimeError("the first reset must start every game")
            self.state = new
        else:
            game.put(self.state, games, new)
        self.learner[games] = learner
        self.opponent.reset_games(self.n, games, e)
        self.elapsed[games] = 0
        self.reward[games] = 0.0
        self.terminated[games] = False
        self.truncated[games] = False
        self.illegal[games] = None
        self.forfeit_winner[games] = -1

    def reset(self, games, seeds=None, state=None, scenario=None) -> None:
        """New episodes in slots ``games``: with base seeds ``seeds`` (uint64 per slot), or each slot's next
        episode; ``state`` (a state of len(games) games) starts them from a given position, ``scenario``
        (a name of ``game.scenarios``, or a list of one name or None per slot; None: the env's own start)
        from a named one drawn from each slot's seed. Then the opponent's opening turns."""
        games = np.asarray(games, dtype=np.int64)
        if games.size == 0:
            return
        self._start_episodes(games, seeds, state, scenario)
        self._play_opponent(games)
        game = self.game
        if state is not None and (game.terminated(self.state)[games] & ~game.truncated(self.state)[games]).any():
            raise ValueError("options['state']: the position ends the episode before the learner acts "
                             "(give a position where the learner gets a turn)")

    def lift_state(self, state):
        """A position given to ``reset(options={"state": ...})`` as the game's state (``GameSpec.lift_state``:
        a game whose state wraps another's takes the inner one too); ValueError if it is neither."""
        game = self.game
        if game.lift_state is not None:
            state = game.lift_state(state)
        if not isinstance(state, game.state_class):
            raise ValueError(f"options['state'] must be a {game.state_class.__name__}, got {state!r}")
        return state

    def outer_state(self):
        """The state as the envs' ``state`` shows it (``GameSpec.outer_state``; None before the first reset)."""
        if self.state is None or self.game.outer_state is None:
            return self.state
        return self.game.outer_state(self.state)

    # --- step --------------------------------------------------------------------------------------------

    def step(self, actions, games, given=None, reset_games=None) -> None:
        """The learner's ``actions`` (int64, one per slot in ``games``; -1 for an entry that is not an id),
        then the opponent's turns. ``given``: the actions as passed (object [len(games)]) for the infos.

        ``reset_games`` (other slots, optional): start their next episodes too, as :meth:`reset` after the
        step would. With the random opponent, whose draws in a slot do not depend on which other slots it
        acts in at the same time, their opening turns are played in the same rounds as the stepped slots'
        (fewer, fuller engine calls; the same games); any other opponent sees the two apart, as always."""
        resets = np.zeros(0, dtype=np.int64) if reset_games is None else np.asarray(reset_games, dtype=np.int64)
        if resets.size and not isinstance(self.opponent, RandomPolicy):
            self.step(actions, games, given)
            self.reset(resets)
            return
        if self.n == 1 and given is None and len(games) == 1:
            self._step_one(int(actions[0]))
            return
        game = self.game
        games = np.asarray(games, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        self.reward[games] = 0.0
        self.illegal[games] = None
        finished = self.terminated[games] | self.truncated[games]  # stepped after the end: ignored
        games, actions = games[~finished], actions[~finished]
        if given is not None:
            given = np.asarray(given, dtype=object)[~finished]
        if games.size == 0:
            self.reset(resets)
            return
        s = self.state
        # a slot whose game ended before the learner acted (the opponent's opening turns): no action to take
        already = game.over(s)[games] | (self.forfeit_winner[games] >= 0)
        in_space = (actions >= 0) & (actions < game.num_actions)
        legal = in_space & game.legal_mask(s)[games, np.clip(actions, 0, game.num_actions - 1)]
        legal &= game.to_act(s)[games] == self.learner[games]
        bad = np.flatnonzero(~legal & ~already)
        if bad.size:
            self._illegal_actions(games[bad], actions[bad] if given is None else given[bad])
        prev_score = game.score(s)[games] if self.score_reward_scale or game.learner_reward else None
        go = games[legal & ~already]
        if go.size:
            self._engine_step(go, actions[legal & ~already], "the learner")
        if resets.size:
            self._start_episodes(resets)
            go = np.concatenate([go, resets])  # disjoint; the order is not read (a sort would cost more)
        if go.size:
            self._play_opponent(go)
        self.elapsed[games] += 1
        self._results(games, prev_score)

    def _step_one(self, action: int) -> None:
        """``step`` of a lone env's one slot with an int ``action`` (maybe outside the space): the same
        checks and outcome, in plain Python scalars where the batch path makes numpy calls."""
        game = self.game
        self.reward[0] = 0.0
        self.illegal[0] = None
        if self.terminated.item() or self.truncated.item():  # stepped after the end: ignored
            return
        s = self.state
        shaped = self.score_reward_scale or game.learner_reward is not None
        prev_score = game.score(s) if shaped else None
        if not (game.over(s).item() or self.forfeit_winner.item() >= 0):  # else the game ended before it acted
            legal = (0 <= action < game.num_actions and game.to_act(s).item() == self.learner.item()
                     and game.legal_mask(s).item(0, action))
            if legal:
                self._engine_step(_SLOT, np.array([action], dtype=np.int64), "the learner")
                self._play_opponent(_SLOT)
            else:
                self._illegal_actions(_SLOT, [action])
        self.elapsed[0] += 1
        self._results(_SLOT, prev_score)

    def _engine_step(self, games, actions, who: str) -> None:
        """Step slots ``games`` (a sub-batch: the engine's games are independent, so nothing else moves)."""
        game, n = self.game, self.n
        whole = games.size == n
        # a few games of a small batch, or most of a big one: stepped in the batch (no take and put back)
        masked = not whole and game.step_active is not None and (
            games.size * 2 >= n or n - games.size < _MIN_COMPACTION)
        try:
            if masked:
                full = np.full(n, game.ignored_action, dtype=np.int64)
                full[games] = actions
                active = np.zeros(n, dtype=bool)
                active[games] = True
                new = game.step_active(self.state, full, active, self.config)
            else:
                sub = self.state if whole else game.take(self.state, games)
                step = game.step if game.step_reusing is None else game.step_reusing  # ``sub`` is ours
                new = step(sub, actions, self.config)
        except game.illegal_error as err:
            g = getattr(err, "game", None)
            g = None if g is None else int(g) if masked else int(games[int(g)])
            raise game.illegal_error(f"{who} played an illegal action in game {g}: {err}", game=g,
                                     action=getattr(err, "action", None),
                                     legal_actions=getattr(err, "legal_actions", ())) from err
        if whole or masked:
            self.state = new
        else:
            game.put(self.state, games, new)

    def _illegal_actions(self, games, given) -> None:
        """The learner's illegal actions: raise (nothing changes), or end those games as its loss."""
        game, s = self.game, self.state
        if self.illegal_action == "raise":
            g = int(games[0])
            entry = illegal_entry(game, s, g, given[0], int(self.learner[g]))
            legal = [game.action_names[i] for i in np.flatnonzero(game.legal_mask(game.take(s, [g]))[0])]
            raise game.illegal_error(f"game {g}: {entry['reason']}", game=g, action=entry["action"],
                                     legal_actions=legal)
        for g, a in zip(games.tolist(), list(given)):  # only the offending games: rare
            self.illegal[g] = illegal_entry(game, s, g, a, int(self.learner[g]))
        self.forfeit_winner[games] = 1 - self.learner[games]
        if game.forfeit is not None:
            game.forfeit(s, games, self.learner[games], self.config)

    def _play_opponent(self, games) -> None:
        """The opponent acts, in batch, in ``games`` until the learner is to act or the game is over.

        One engine step per round over every game where the opponent is to act (the same games each
        policy call sees, however the rounds run). With ``game.step_active`` the rounds step the whole
        batch with an active mask until fewer than half of its games are left to act, then a sub-batch of
        only those, compacted again as games leave it (each compaction drops at least
        ``_MIN_COMPACTION``), so that the tail of rounds neither copies the whole batch nor takes and puts
        back a sub-batch every round; the finished games are written back as they leave.
        """
        game = self.game
        games = np.asarray(games, dtype=np.int64)
        random = isinstance(self.opponent, RandomPolicy)
        if self.n == 1 and random:
            self._play_opponent_one()
            return
        if game.step_active is None:
            self._play_opponent_taking(games)
            return
        playing = np.zeros(self.n, dtype=bool)
        playing[games] = True
        rows = None  # the slots of ``sub``'s games; None while ``sub`` is the whole batch
        sub, learner, forfeited = self.state, self.learner, self.forfeit_winner >= 0
        try:
            while True:
                to_act = game.to_act(sub)
                turn = (to_act >= 0) & (to_act != learner) & playing & ~forfeited
                count = np.count_nonzero(turn)
                if count == 0:
                    return
                size = turn.size
                if count * 2 < size and size - count >= _MIN_COMPACTION:  # compact: keep the games to act
                    keep = np.flatnonzero(turn)
                    if rows is None:
                        self.state, rows = sub, keep  # every slot is current (the others were not stepped)
                    else:
                        done = np.flatnonzero(~turn)
                        game.put(self.state, rows[done], game.take(sub, done))
                        rows = rows[keep]
                    sub, learner, forfeited = game.take(sub, keep), learner[keep], forfeited[keep]
                    turn = playing = np.ones(keep.size, dtype=bool)
                    size = count
                acting = np.flatnonzero(turn)
                slots = acting if rows is None else rows[acting]
                if random:  # the random opponent reads only the masks: no sub-batch to take
                    chosen = self.opponent.draw(_legal_of(game, sub, acting, count == size), slots)
                else:
                    view = sub if count == size else game.take(sub, acting)
                    chosen = self._checked(self.opponent.actions(game, view, self.config, slots,
                                                                 self._opponent_observation), slots)
                full = np.full(size, game.ignored_action, dtype=np.int64)
                full[acting] = chosen
                try:
                    sub = game.step_active(sub, full, turn, self.config)
                except game.illegal_error as err:
                    g = getattr(err, "game", None)
                    g = None if g is None else int(g) if rows is None else int(rows[int(g)])
                    raise game.illegal_error(f"the opponent played an illegal action in game {g}: {err}",
                                             game=g, action=getattr(err, "action", None),
                                             legal_actions=getattr(err, "legal_actions", ())) from err
        finally:
            if rows is None:
                self.state = sub
            else:
                game.put(self.state, rows, sub)

    def _play_opponent_taking(self, games) -> None:
        """``_play_opponent`` for a game without ``step_active``: each round steps the games to act (a
        sub-batch taken and put back, unless it is the whole batch)."""
        game = self.game
        games = np.sort(games)  # in slot order: a round of the whole batch steps the state's rows as they are
        random = isinstance(self.opponent, RandomPolicy)
        while games.size:
            s = self.state
            to_act = game.to_act(s)[games]
            turn = (to_act >= 0) & (to_act != self.learner[games]) & (self.forfeit_winner[games] < 0)
            games = games[turn]
            if games.size == 0:
                return
            if random:  # the random opponent reads only the masks: no sub-batch to take
                chosen = self.opponent.draw(_legal_of(game, s, games, games.size == self.n), games)
            else:
                sub = s if games.size == self.n else game.take(s, games)
                chosen = self._checked(self.opponent.actions(game, sub, self.config, games,
                                                             self._opponent_observation), games)
            self._engine_step(games, chosen, "the opponent")

    @staticmethod
    def _checked(chosen, games) -> np.ndarray:
        """A policy's actions as int64 [k], one per game of ``games``; ValueError otherwise."""
        chosen = np.asarray(chosen)
        if chosen.ndim == 0:
            chosen = chosen.reshape(1)
        if chosen.shape != games.shape or chosen.dtype.kind not in "iu":
            raise ValueError(f"the opponent must return one int action per game ({games.size}), got "
                             f"{chosen.dtype} {chosen.shape}")
        return chosen.astype(np.int64)

    def _play_opponent_one(self) -> None:
        """``_play_opponent`` for a lone env with the random opponent: the same turns and draws, the
        bookkeeping in plain Python (a lone game's step is short, numpy's per-call cost is not)."""
        game, learner = self.game, self.learner.item()
        if self.forfeit_winner.item() >= 0:
            return
        while True:
            to_act = game.to_act(self.state).item()
            if to_act < 0 or to_act == learner:
                return
            action = self.opponent.draw_one(game.legal_mask(self.state)[0], 0)
            self._engine_step(_SLOT, np.array([action], dtype=np.int64), "the opponent")

    def _opponent_observation(self, sub_state):
        return self._encode(sub_state, self.game.to_act(sub_state), self.config)

    def _results(self, games, prev_score=None) -> None:
        """Rewards and episode ends of ``games`` after a learner step; ``prev_score`` (int [k, 2], with
        score shaping on) the score before it."""
        game, s = self.game, self.state
        forfeited = self.forfeit_winner[games] >= 0
        terminated = game.terminated(s)[games] | forfeited
        own = self.learner[games]
        if game.learner_reward is not None:  # the game's own reward (GameSpec.learner_reward)
            reward = game.learner_reward(s, games, own, prev_score, forfeited, self.config)
        else:
            winner = np.where(forfeited, self.forfeit_winner[games], game.winner(s)[games])
            reward = np.where(terminated, (winner == own).astype(np.float64) - (winner == 1 - own), 0.0)
        if self.score_reward_scale:  # score shaping: the learner's margin gained this step, in score units
            r = np.arange(games.size)
            delta = game.score(s)[games] - prev_score
            margin = delta[r, own] - delta[r, 1 - own]
            reward = reward + self.score_reward_scale * margin / game.score_unit(self.config)
        truncated = game.truncated(s)[games] & ~terminated
        if self.max_episode_steps is not None:
            truncated |= (self.elapsed[games] >= self.max_episode_steps) & ~terminated
        self.reward[games] = reward
        self.terminated[games] = terminated
        self.truncated[games] = truncated

    # --- views ------------------------------------------------------------------------------------------

    def observation(self, games=None):
        """The learner's observations of ``games`` (default all): float32 [k, N] for "features", else the
        game's own kind's (an array or a dict of arrays, leading axis k)."""
        game = self.game
        if games is None:
            return self._encode(self.state, self.learner, self.config)
        games = np.asarray(games, dtype=np.int64)
        return self._encode(game.take(self.state, games), self.learner[games], self.config)

    def masks(self) -> np.ndarray:
        """bool [N, A]: the learner's legal actions; only ``game.ignored_action`` where its action would be
        ignored (its episode is over, or the game ended before it could act)."""
        game, s = self.game, self.state
        mine = (game.to_act(s) == self.learner) & ~self.terminated & ~self.truncated & (self.forfeit_winner < 0)
        return masks_for(game, game.legal_mask(s), mine)

    def learner_names(self, games=None) -> np.ndarray:
        return _AGENT_NAMES[self.learner if games is None else self.learner[games]]

    def render(self, mode: str, index: int):
        """One slot drawn by the game ("ansi" a str, "rgb_array" uint8 [H, W, 3]), turned by ``offence_up``
        for a game with ``orientation``. A forfeit the game cannot record (``forfeit`` None: the state
        stays where the illegal action was tried) is noted under the text."""
        game = self.game
        turn = {"offence_up": self.offence_up} if game.orientation else {}
        if mode == "rgb_array":
            return game.render_rgb(self.state, index, **turn)
        text = game.render_ansi(self.state, index, **turn)
        if self.forfeit_winner[index] >= 0 and game.forfeit is None:
            text += "\n" + forfeit_note(int(self.forfeit_winner[index]))
        return text


class GameVectorEnv(VectorEnv):
    """``gymnasium.make_vec(id, num_envs=N)``: N whole games of ``game``, natively batched.

    ``step(actions)`` takes int actions [N] and returns observations float32 [N, obs size], rewards float64
    [N], terminations and truncations bool [N] and infos: ``"action_mask"`` int8 [N, A],
    ``"learner_team"`` (agent names) and, for games lost by an illegal action, ``"illegal_action"`` (a
    dict per game: team, action, name, reason), each with its ``"_key"`` mask. Actions of another shape,
    or entries that are not ints or bools, are a ValueError and change nothing; a bool entry is an illegal
    action of its game. Masks are never all zero (see :mod:`.common`).

    Options: ``game`` (a registered name or a GameSpec) and ``variant`` (set by the registered id),
    ``learner_team`` "one" / "two" / "random" (per episode, from the seed), ``opponent`` (None: uniformly
    random legal actions; an agent with ``act(state, config, games)``; a callable with ``needs_state =
    True`` taking ``(state, config, games=)``; or a callable ``(obs, mask) -> actions``, given None for
    obs when it has ``needs_observation = False``; see :mod:`.common`), ``observation`` "features" or a
    kind of ``game.observation_kinds`` (Gridiron's "planes": a dict of arrays), ``score_reward_scale``
    (>= 0, a game with ``score_unit``: each step adds c * margin change / score unit), ``offence_up``
    (a game with ``orientation``: pictures turned with the offence), ``illegal_action`` "lose" / "raise", ``config`` (the game's config or a dict of its
    fields), ``max_episode_steps`` (learner steps, truncated here: ``make_vec`` adds no TimeLimit),
    ``autoreset_mode`` NEXT_STEP (default) / SAME_STEP (terminal obs and info in ``infos["final_obs"]``,
    ``infos["final_info"]``) / DISABLED (``reset(options={"reset_mask": mask})``), ``render_mode``,
    ``scenario`` (a name of ``game.scenarios``, such as Gridiron's ``gridiron_env.SCENARIOS``: every
    episode, autoresets included, starts from it).

    ``reset(seed=s)`` seeds slot i with s + i (mod 2**64; a list gives each slot's seed, None keeping
    its stream); ``reset()`` starts each slot's next episode. ``options``: ``{"reset_mask": bool [N]}``,
    ``{"state": state}`` (start the reset slots from a given position), ``{"scenario": name}`` (start the
    reset slots from a named position, its open parts drawn from each slot's seed, or a list of one name
    or None per slot; an unknown name is a ValueError listing the allowed ones).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs=1, *, game="table_football", variant="basic", learner_team="random",
                 opponent=None, observation="features", illegal_action="lose", score_reward_scale=0.0,
                 config=None, max_episode_steps=None, autoreset_mode=AutoresetMode.NEXT_STEP, render_mode=None,
                 offence_up=False, scenario=None):
        self._core = LearnerCore(num_envs, game=game, variant=variant, learner_team=learner_team,
                                 opponent=opponent, illegal_action=illegal_action, config=config,
                                 max_episode_steps=max_episode_steps, scenario=scenario, observation=observation,
                                 score_reward_scale=score_reward_scale, offence_up=offence_up)
        self.game = self._core.game
        self.num_envs = self._core.n
        self.autoreset_mode = parse_autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = check_render_mode(render_mode)
        self.offence_up = self._core.offence_up
        self.single_observation_space = self._core.single_observation_space
        self.single_action_space = self._core.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)

    @property
    def config(self):
        return self._core.config

    @property
    def state(self):
        """The engine state of all games (updated as the env steps: copy it to keep it; do not edit it)."""
        return self._core.outer_state()

    def reset(self, *, seed=None, options=None):
        options = check_options(options, ("reset_mask", "state", "scenario"))
        core, n = self._core, self.num_envs
        scenario = scenario_option(options.get("scenario"), n, lambda name: get_scenario(self.game, name))
        games = np.arange(n)
        if options.get("reset_mask") is not None:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (n,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({n},)")
            games = np.flatnonzero(mask)
        state = options.get("state")
        if seed is None and not core.started:  # a first reset without a seed: draw one
            seed = int(self.np_random.integers(0, 2**62))
        if isinstance(seed, (list, tuple, np.ndarray)):
            if isinstance(seed, np.ndarray) and seed.ndim != 1:
                raise ValueError(f"an array of seeds must be 1-d (one per game), got shape {seed.shape}")
            seeds = [None if x is None else check_seed(x, "each seed of a list") for x in list(seed)]
            if len(seeds) != n:
                raise ValueError(f"a list of seeds must have num_envs = {n} entries, got {len(seeds)}")
            given = np.array([x is not None for x in seeds])
            if not core.started and not given.all():
                raise ValueError("the first reset needs a seed for every game (or seed=None / an int)")
            values = np.array([0 if x is None else x for x in seeds], dtype=np.uint64)
            if state is not None:  # its games in the order of the reset slots: split as the slots are
                state = core.lift_state(state)
            unseeded, seeded = games[~given[games]], games[given[games]]
            core.reset(unseeded, None, _rows(self.game, state, ~given[games]), scenario_of(scenario, unseeded))
            core.reset(seeded, values[seeded], _rows(self.game, state, given[games]), scenario_of(scenario, seeded))
        elif seed is not None:
            seed = check_seed(seed)
            super().reset(seed=seed)
            with np.errstate(over="ignore"):  # slot i's seed s + i wraps past 2**64 - 1 to 0
                seeds = np.uint64(seed) + games.astype(np.uint64)
            core.reset(games, seeds, state, scenario_of(scenario, games))
        else:
            core.reset(games, None, state, scenario_of(scenario, games))
        self._needs_reset[games] = False
        return core.observation(), self._infos()

    def step(self, actions):
        core, n = self._core, self.num_envs
        ids, given = batch_actions(actions, n, self.game.num_actions)
        if not core.started:
            raise RuntimeError("call reset() before step()")
        slots = np.arange(n)
        final = None
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            resetting = self._needs_reset.copy()
            stepping = slots[~resetting]
            # the resets' actions are ignored; reward 0, not ended (starting their episodes cleared them)
            core.step(ids[~resetting], stepping, None if given is None else given[~resetting],
                      reset_games=slots[resetting])
            done = core.terminated | core.truncated
            self._needs_reset = done.copy()
        else:
            core.step(ids, slots, given)
            done = core.terminated | core.truncated
            if self.autoreset_mode == AutoresetMode.SAME_STEP and done.any():
                ended = np.flatnonzero(done)
                final = (ended, core.observation(ended), self._infos(ended))
        reward = core.reward.astype(np.float64)
        terminated, truncated = core.terminated.copy(), core.truncated.copy()
        if final is not None:
            core.reset(final[0])
        infos = self._infos()
        if final is not None:
            ended, obs, info = final
            final_obs = np.full(n, None, dtype=object)
            for j, g in enumerate(ended.tolist()):
                final_obs[g] = index_obs(obs, j)
            infos["final_obs"], infos["_final_obs"] = final_obs, done.copy()
            infos["final_info"], infos["_final_info"] = expand_infos(info, ended, n), done.copy()
        return core.observation(), reward, terminated, truncated, infos

    def _infos(self, games=None) -> dict:
        core = self._core
        mask = core.masks()
        if games is not None:
            mask = mask[games]
        k = mask.shape[0]
        # the masks are fresh arrays (``masks_for`` makes them): viewed as int8 (0/1 bytes either way), not copied
        infos = {"action_mask": mask.view(np.int8), "_action_mask": np.ones(k, dtype=bool),
                 "learner_team": core.learner_names(games), "_learner_team": np.ones(k, dtype=bool)}
        illegal = core.illegal if games is None else core.illegal[games]
        has = np.not_equal(illegal, None).astype(bool)
        if has.any():
            infos["illegal_action"], infos["_illegal_action"] = illegal.copy(), has
        return infos

    def action_masks(self) -> np.ndarray:
        """bool [N, A]: each game's legal actions for the learner (sb3-contrib's convention)."""
        return self._core.masks()

    def render(self):
        """One frame per game (str for "ansi", uint8 [H, W, 3] for "rgb_array"), as a tuple."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if not self._core.started:
            raise RuntimeError("call reset() before render()")
        return tuple(self._core.render(self.render_mode, g) for g in range(self.num_envs))

    def __repr__(self):
        return (f"{type(self).__name__}(game={self.game.name!r}, num_envs={self.num_envs}, "
                f"autoreset_mode={self.autoreset_mode.value})")


def _legal_of(game: GameSpec, state, rows, whole: bool) -> np.ndarray:
    """bool [k, A]: the legal masks of ``state``'s games ``rows`` (all of them when ``whole``), by the game's
    ``legal_rows`` where it has one (no mask of the whole batch built to read a few rows)."""
    if whole:
        return game.legal_mask(state)
    if game.legal_rows is not None:
        return game.legal_rows(state, rows)
    return game.legal_mask(state)[rows]


def _rows(game: GameSpec, state, keep):
    """The games of a given ``state`` where ``keep`` (bool [k]) is True (None for no state)."""
    return None if state is None else game.take(state, np.flatnonzero(keep))


def expand_infos(info: dict, games, n: int) -> dict:
    """Infos of the sub-batch ``games`` spread over the batch of ``n`` (for ``final_info``)."""
    out = {}
    for key, value in info.items():
        if key.startswith("_"):
            mask = np.zeros(n, dtype=bool)
            mask[games] = value
            out[key] = mask
        elif value.dtype == object:
            full = np.full(n, None, dtype=object)
            full[games] = value
            out[key] = full
        else:
            full = np.zeros((n,) + value.shape[1:], dtype=value.dtype)
            full[games] = value
            out[key] = full
    return out
