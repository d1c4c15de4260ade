"""``python -m gridiron_env.web``: the same as ``gridiron-serve``."""

import sys

from .server import main

sys.exit(main())
