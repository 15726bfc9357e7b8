"""The test suite's settings: production settings (DEBUG off, as pytest-django runs them) with a
key of their own and plain http, as the test client and the live server speak.

Set in the environment before config.settings reads it, so the servers and commands a test
starts in a subprocess get the same.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-only-key-never-used-by-a-site-8f3kQ2vLx9ZpT4wR7mN1bH6cJ0dYs5")
os.environ.setdefault("HTTPS", "false")

from config.settings import *  # noqa: E402, F403
