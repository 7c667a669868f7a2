"""Settings for the whole suite."""
import os

# The suite creates games far faster than any client should: rate limits are off for every
# app and server it starts (service/limits.py), except where a test turns them on in its app's
# config (tests/api/test_rate_limits.py).
os.environ["PARLEY_RATE_LIMITS"] = "off"
