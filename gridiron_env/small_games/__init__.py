"""What the small games' folders (Table Football, Sports Dice) share, written once.

Each game keeps its rules; this package holds the plumbing around them, named in the games' terms:

- ``engine``: the batch plumbing of ``init`` and ``step`` (per-game random streams, the config check, the
  action check and the illegal-action error, the per-call step context, the cached legal mask).
- ``diagram``: the diagram notation's reading and writing (the title and ``key: value`` lines, numbers,
  teams, the result line, the final checks of a diagram's state).
- ``invariants``: the checker's reporting (the (game, problem) list, the cached mask check, the error).
- ``render``: the ansi / rgb drawing helpers (the 5 x 7 font and its text, the field strip's geometry,
  colours, grass, end zones, yard lines, the ball and the attacking arrow, the text strip and status).
- ``config``: the config records' ``replace`` / ``to_dict`` / ``from_dict`` and their int check.
- ``game``: a game's :class:`~gridiron_env.protocol.GameSpec` from its modules.
- ``speed``: the engine speed measurement behind ``benchmarks/<game>_speed.py``.

The struct-of-arrays state shell is ``gridiron_env.batch_state``, the random and solution agents and the
match runner ``gridiron_env.solved_agents``, the action names ``gridiron_env.action_names``.
"""
