"""Shared test helpers and settings.

Hypothesis runs a fixed, capped profile ("ci", derandomized) so that a run is reproducible; set
HYPOTHESIS_PROFILE=dev for a longer, randomized search.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], database=None)
settings.register_profile("dev", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
