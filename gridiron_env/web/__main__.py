"""``python -m gridiron_env.web``: the same as ``gridiron-serve``."""

import sys

from . import main  # the web extra checked first: one line when it is missing

sys.exit(main())
