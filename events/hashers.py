"""The signing PIN's hasher: argon2, sized for a PIN checked at the window on every co-signed slip.

A login password is hashed to be slow to guess offline (argon2's defaults, config.settings). A PIN
of 4 to 8 digits cannot be: a few million guesses break any hash of it, however slow. What protects
a PIN is the lockout (events.lockout: a few wrong PINs and signing by PIN stops for that person at
that address) and the database kept out of reach. So its hash only needs to be one-way and salted,
and cheap enough that a runner's PIN on a fill costs the cashier a few milliseconds, not a quarter
of a second (issue 11: a co-signed slip in under 50 ms).
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class SigningPinHasher(Argon2PasswordHasher):
    algorithm = "argon2pin"
    time_cost = 1
    memory_cost = 8192  # KiB
    parallelism = 1
