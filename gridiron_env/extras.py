"""Optional dependencies: which extra of ``pyproject.toml`` brings each one, and the one-line answer a
command gives when one is missing (``pip install 'gridiron_env[EXTRA]'``) instead of a traceback.

    from gridiron_env.extras import require
    pyplot = require("matplotlib.pyplot", "the tournament plot")   # MissingExtra if not installed

Commands wrap their ``main`` in :func:`exit_on_missing_extra`: a :class:`MissingExtra` raised anywhere in
it prints ``PROG: error: ...`` as one line on stderr and exits with status 2.
"""

from __future__ import annotations

import functools
import importlib
import sys

# top-level module -> the extra that installs it
EXTRA_OF = {
    "onnx": "export", "onnxruntime": "export", "onnxscript": "export",
    "matplotlib": "plot",
    "moviepy": "video",
    "PIL": "render",
    "starlette": "web", "uvicorn": "web", "websockets": "web",
    "mkdocs": "docs", "material": "docs",
    "ray": "rllib",
}
MISSING_EXTRA_STATUS = 2


class MissingExtra(ImportError):
    """An optional dependency is not installed. ``str()`` is one line: what needs it and the pip command
    of its extra."""

    def __init__(self, module: str, purpose: str):
        top = module.split(".")[0]
        self.module, self.extra, self.purpose = module, EXTRA_OF.get(top), purpose
        super().__init__(f"{purpose} needs {top}, which is not installed: {install_hint(top)}", name=top)


def install_hint(module: str) -> str:
    """The pip command that installs ``module`` (its extra's when it has one)."""
    top = module.split(".")[0]
    extra = EXTRA_OF.get(top)
    return f"pip install 'gridiron_env[{extra}]'" if extra else f"pip install {top}"


def require(module: str, purpose: str):
    """Import and return ``module``; :class:`MissingExtra` naming ``purpose`` and the extra if it (or a
    module it needs) is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        if isinstance(err, MissingExtra):
            raise
        missing = (getattr(err, "name", None) or module).split(".")[0]
        raise MissingExtra(missing if missing in EXTRA_OF else module, purpose) from None


def exit_on_missing_extra(prog: str):
    """Decorator for a command's ``main``: a :class:`MissingExtra` becomes one line on stderr and
    ``SystemExit(2)``."""

    def wrap(main):
        @functools.wraps(main)
        def run(*args, **kwargs):
            try:
                return main(*args, **kwargs)
            except MissingExtra as err:
                print(f"{prog}: error: {err}", file=sys.stderr)
                raise SystemExit(MISSING_EXTRA_STATUS) from None

        return run

    return wrap
