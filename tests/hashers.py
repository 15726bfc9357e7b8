"""The suite's signing PIN hasher: the product's (events.hashers.SigningPinHasher, the same
algorithm name and format) with argon2's least memory. Every persona sets a PIN and many slips are
co-signed with one; at 8 MiB each make and check costs milliseconds that, over the suite, add up to
most of a minute. tests/events/test_accounts.py checks the product's own hashers and parameters."""

from events.hashers import SigningPinHasher


class CheapSigningPinHasher(SigningPinHasher):
    memory_cost = 8  # KiB: argon2's least for one lane
