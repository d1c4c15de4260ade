"""Play any protocol game in the terminal against an agent, or watch two agents play.

Usage::

    python -m agents.game_play --game table_football                   # you against the random agent
    python -m agents.game_play --game table_football --variant clock --opponent optimal --team two
    python -m agents.game_play --game table_football --opponent bot:path/to/bot.npz --seed 7
    python -m agents.game_play --game table_football --watch --player optimal --opponent random

Options: ``--game NAME`` (a registered game), ``--variant NAME``, ``--config JSON`` (config fields over the
variant's default), ``--opponent SPEC`` (``gridiron_env.adapters.agents.make_agent``: ``random``,
``bot:PATH[@T]``, ``onnx:PATH`` or the game's own agents, e.g. ``optimal``; default ``random``), ``--team
one|two|random``, ``--seed N`` (0 to 2**64 - 1; default random, printed), ``--watch`` with ``--player
SPEC`` (no human).

On your turn the game's text picture (``game.render_ansi``) is shown with a numbered list of your legal
actions by name. Answer with a number from the list or an action name (``game.action_id``: the game's
own spelling rules; a unique start of a legal action's name does too: ``run`` for ``run play``).
Commands: ``?``/``help``, ``board``, ``list``, ``quit``. Bad input is answered and asked again; the end of
input ends the game politely.

Hidden information stays hidden: a player is shown ``game.render_ansi`` of ``game.view(state, team)``
(the protocol's copy with what that team may not see blanked; games that hide nothing have no ``view``),
and an action of the other team is named only if the player could tell it apart: when another legal
action would have left the player's observation (``game.observe``, which shows a team only what it may
see) the same, the line says a choice was made and no more (Gridiron's secret special pick). Watching
(``--watch``) shows everything.

Exit status as ``gridiron-play``'s: 0 the game ended or was stopped (quit, end of input), 1 an agent broke
a rule, 2 bad options or an unusable bot file (one line on stderr), 130 Ctrl-C, 141 the output pipe was
closed, 74 the output could not be written; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys

import numpy as np

# the terminal plumbing of gridiron-play (closed streams, broken pipes, undecodable bytes), shared
from agents.play import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_OUTPUT_ERROR, MAX_SEED
from agents.play import _Console, _OutputLost

__all__ = ["main", "parse_choice", "menu_lines"]

TEAM_NAMES = ("one", "two")
PROG = "game-play"

HELP = """\
How to play: on your turn, answer with the number of an action in the list, or type its name
  (case and extra spaces do not matter; the start of a name will do when only one legal action has it).
Commands: board (show the game again), list (your options again), help or ? (this text),
  quit (end the game here)."""


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # raise instead of exiting, so main() answers through error_fn
        raise _ArgError(message)


def _parser() -> _Parser:
    from gridiron_env.protocol import game_names

    p = _Parser(prog=PROG, add_help=False, description="Play a game of the protocol in the terminal.")
    p.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    p.add_argument("--game", default="table_football", help=f"the game ({', '.join(game_names())})")
    p.add_argument("--variant", default="basic", help="the game's variant (e.g. basic, clock)")
    p.add_argument("--config", default=None, help="config fields as a JSON object")
    p.add_argument("--opponent", default="random", help="random | bot:PATH | onnx:PATH | the game's own agents")
    p.add_argument("--team", default="one", choices=("one", "two", "random"), help="the team you play")
    p.add_argument("--watch", action="store_true", help="watch --player against --opponent (no human)")
    p.add_argument("--player", default=None, help="in --watch, who plays your seat (default: like the opponent)")
    p.add_argument("--seed", type=int, default=None, help="game seed, 0 to 2**64 - 1 (default: random, printed)")
    return p


def menu_lines(game, legal_row) -> tuple[list[int], list[str]]:
    """The legal action ids in id order and their numbered lines (``[1] run play``)."""
    ids = [int(a) for a in np.flatnonzero(legal_row)]
    return ids, [f"  [{k}] {game.action_names[a]}" for k, a in enumerate(ids, 1)]


def parse_choice(game, text: str, ids: list[int]) -> tuple[int | None, str]:
    """One line of input as a legal action id, or (None, the message to show): a menu number, a name
    (``game.action_id``) or the unique start of a legal action's name."""
    raw = text.strip()
    if not raw:
        return None, f"Please answer with a number from 1 to {len(ids)} or an action name (? for help)."
    try:
        k = int(raw)
    except ValueError:
        k = None
    if k is not None:
        if 1 <= k <= len(ids):
            return ids[k - 1], ""
        return None, f"{k} is not on the list: choose a number from 1 to {len(ids)} (or type 'list')."
    try:
        a = game.action_id(raw)
    except ValueError:
        a = None
    if a is not None:
        if a in ids:
            return a, ""
        return None, f"'{game.action_names[a]}' is not legal now; choose one from the list (type 'list')."
    words = " ".join(raw.lower().split())
    starts = [a for a in ids if game.action_names[a].lower().startswith(words)]
    if len(starts) == 1:
        return starts[0], ""
    if starts:
        return None, f"{raw!r} could be: " + ", ".join(game.action_names[a] for a in starts) + "; say which."
    shown = raw if len(raw) <= 40 else raw[:37] + "..."
    return None, (f"{shown!r} is not a legal action now: choose a number from 1 to {len(ids)} or type an "
                  "action name (? for help).")


class _Game:
    def __init__(self, game, config, seats, names, human, print_fn, input_fn):
        self.game, self.config = game, config
        self.seats, self.names, self.human = seats, names, human
        self.print, self.input = print_fn, input_fn

    def picture(self, state) -> str:
        """The text picture of the game as the human may see it (everything when watching)."""
        view = self.game.view
        shown = state if view is None or self.human is None else view(state, self.human)
        return self.game.render_ansi(shown, 0).rstrip("\n")

    def secret(self, before, action: int) -> bool:
        """Whether the human may not learn the other team's ``action``: some other legal action would have
        left the human's observation the same (only for games that hide something: ``game.view``)."""
        game = self.game
        if game.view is None or self.human is None:
            return False
        legal = np.flatnonzero(game.legal_mask(before)[0])
        others = legal[legal != action]
        if not others.size:
            return False
        tried = game.step(game.take(before, np.zeros(others.size + 1, dtype=np.int64)),
                          np.concatenate([[action], others]).astype(np.int64), self.config)
        seen = game.observe(tried, self.human, self.config)
        return bool((seen[1:] == seen[0]).all(axis=1).any())

    def ask(self, state) -> int | None:
        """The human's legal action, or None to stop (quit, end of input)."""
        p, game = self.print, self.game
        team = int(game.to_act(state)[0])
        ids, lines = menu_lines(game, game.legal_mask(state)[0])

        def show_list():
            p(f"Team {TEAM_NAMES[team]} (you) to act. Your options:")
            p("\n".join(lines))

        p("")
        p(self.picture(state))
        show_list()
        while True:
            try:
                text = self.input(f"team {TEAM_NAMES[team]}> ")
            except EOFError:
                p("")
                p("End of input: the game stops here.")
                return None
            if text is None:
                p("End of input: the game stops here.")
                return None
            command = text.strip().lower()
            if command in ("?", "help", "h"):
                p(HELP)
                continue
            if command == "board":
                p(self.picture(state))
                continue
            if command in ("list", "options", "ls"):
                show_list()
                continue
            if command in ("quit", "exit", "q"):
                p("You quit.")
                return None
            action, message = parse_choice(game, text, ids)
            if action is None:
                p(message)
                continue
            return action

    def play(self, seed: int) -> int:
        p, game, config = self.print, self.game, self.config
        seeds = np.array([seed], dtype=np.uint64)
        state = game.init(1, 0, config, seeds=seeds)
        for agent in self.seats:
            if agent is not None:
                agent.reset(seeds)
        if self.human is None:
            p(self.picture(state))
        while int(game.to_act(state)[0]) >= 0:
            team = int(game.to_act(state)[0])
            agent = self.seats[team]
            if agent is None:
                action = self.ask(state)
                if action is None:
                    self.final(state, stopped=True)
                    return 0
            else:
                out = np.asarray(agent.act(state, config, games=np.array([0]))).reshape(-1)
                action = int(out[0]) if out.size and out.dtype.kind in "iu" else -1
                if not (0 <= action < game.num_actions and game.legal_mask(state)[0, action]):
                    p(f"{self.names[team]} (team {TEAM_NAMES[team]}) chose an illegal action ({out[:1].tolist()}).")
                    self.final(state, stopped=True, broken=True)
                    return 1
            before, before_state = game.score(state)[0].copy(), state
            try:
                state = game.step(state, np.array([action], dtype=np.int64), config)
            except game.illegal_error as err:  # cannot happen for a checked action: an engine bug, said plainly
                p(f"{self.names[team]} (team {TEAM_NAMES[team]}): {err}")
                self.final(state, stopped=True, broken=True)
                return 1
            who = "you" if team == self.human else self.names[team]
            said = "makes a choice you may not see yet" if team != self.human and self.secret(before_state, action) \
                else game.action_names[action]
            p(f"  team {TEAM_NAMES[team]} ({who}): {said}")
            after = game.score(state)[0]
            if not np.array_equal(before, after):
                p(f"    -> score: one {int(after[0])} - {int(after[1])} two")
            if self.human is None:
                p(self.picture(state))
        self.final(state)
        return 0

    def final(self, state, stopped: bool = False, broken: bool = False) -> None:
        p, game = self.print, self.game
        score = game.score(state)[0]
        text = f"one {int(score[0])} - {int(score[1])} two"
        if stopped:
            p(("The game cannot go on." if broken else "Game over early.") + f" Score when it stopped: {text}.")
            return
        p("")
        p(self.picture(state))
        p(f"Final score: {text}.")
        winner = int(game.winner(state)[0])
        if winner in (0, 1):
            who = f"team {TEAM_NAMES[winner]} ({self.names[winner]})"
            tail = "" if self.human is None else (" You win!" if winner == self.human else " You lose.")
            p(f"Winner: {who}.{tail}")
        elif bool(game.terminated(state)[0]) and winner == game.draw_value:
            p("The game is a draw.")
        else:
            p("No winner: the game was stopped by its cap.")


def _run(argv, input_fn, print_fn, error_fn) -> int:
    from gridiron_env.adapters.agents import make_agent
    from gridiron_env.protocol import get_game

    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
        if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
            raise _ArgError(f"argument --seed: must be from 0 to 2**64 - 1 = {MAX_SEED}, got {args.seed}")
        if not args.watch and args.player is not None:
            raise _ArgError("argument --player: only with --watch")
    except _ArgError as err:
        error_fn(f"{PROG}: error: {err} (see --help)")
        return 2
    if args.help:
        print_fn(_parser().format_help().rstrip())
        return 0
    try:
        game = get_game(args.game)
        fields = None
        if args.config is not None:
            try:
                fields = json.loads(args.config)
            except json.JSONDecodeError as err:
                raise ValueError(f"--config must be a JSON object of config fields: {err}") from None
            if not isinstance(fields, dict):
                raise ValueError("--config must be a JSON object of config fields")
        config = game.make_config(fields, args.variant)
        opponent = make_agent(args.opponent, game, config)
        player = make_agent(args.player or args.opponent, game, config) if args.watch else None
    except (ValueError, TypeError, ImportError, OSError) as err:  # a bad game, config, spec or bot file
        error_fn(f"{PROG}: error: {' '.join(str(err).split())}")
        return 2
    seed = secrets.randbelow(2**31) if args.seed is None else int(args.seed)
    human = {"one": 0, "two": 1}.get(args.team)
    if human is None:
        human = int(np.random.default_rng(seed).integers(2))
    seats = [None, None]
    names = ["you", "you"]
    seats[1 - human], names[1 - human] = opponent, str(getattr(opponent, "name", "opponent"))
    if args.watch:
        seats[human], names[human] = player, str(getattr(player, "name", "player"))
    print_fn(f"{game.name} ({args.variant}), seed {seed}: team one {names[0]}, team two {names[1]}."
             + ("" if args.watch else f" You play team {TEAM_NAMES[human]}. Type ? for help."))
    return _Game(game, config, seats, names, None if args.watch else human, print_fn, input_fn).play(seed)


def main(argv=None, input_fn=None, print_fn=None, error_fn=None) -> int:
    """Run the command; returns the exit code (see the module docstring). ``input_fn`` / ``print_fn`` stand
    in for the terminal in tests; ``error_fn`` gets the one-line errors (default: stderr, or ``print_fn``
    when one is given)."""
    console = _Console()
    print_fn = console.print if print_fn is None else print_fn
    input_fn = console.input if input_fn is None else input_fn
    error_fn = error_fn or (console.error if print_fn == console.print else print_fn)
    try:
        try:
            code = _run(argv, input_fn, print_fn, error_fn)
        except KeyboardInterrupt:
            print_fn("")
            print_fn("Interrupted: the game stops here.")
            code = EXIT_INTERRUPTED
        console.flush()
        return code
    except _OutputLost as lost:
        console.silence()
        error_fn(f"{PROG}: {lost}")
        return EXIT_BROKEN_PIPE if lost.broken_pipe else EXIT_OUTPUT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
