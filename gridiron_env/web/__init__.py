"""Play Gridiron in a browser: a local web server (Starlette + uvicorn) and a plain HTML/JS page.

``gridiron-serve`` (or ``python -m gridiron_env.web``) serves the page; the engine and the agents (the
shipped bot at each level, the heuristic, the panel) run in the server, and the page receives only what
the person's team may see. Modules: ``server`` (the app and the command), ``protocol`` (the messages and
their checks), ``sessions`` (the games), ``views`` (what a team sees, its legal actions described for the
screen), ``records`` (game records as JSON: save, check, replay). Needs the ``web`` extra.
"""

__all__ = ["create_app", "main"]


def create_app(*args, **kwargs):
    from .server import create_app as _create_app

    return _create_app(*args, **kwargs)


def main(argv=None) -> int:
    """``gridiron-serve``: without the ``web`` extra, one line naming it and exit status 2."""
    import sys

    from gridiron_env.extras import MISSING_EXTRA_STATUS, MissingExtra, require

    try:
        for module in ("starlette", "uvicorn", "websockets"):
            require(module, "gridiron-serve")
    except MissingExtra as err:
        print(f"gridiron-serve: error: {err}", file=sys.stderr)
        return MISSING_EXTRA_STATUS
    from .server import main as _main

    return _main(argv)
