"""Which refusal a test expects, by its code: `with refuses("signing.same_person"):`.

A refusal's code (core.rules.RuleViolation.code) stays the same whatever its wording and the
reader's language, so a test about WHICH refusal happened names its code, and its arguments
(`.arguments`) where the test is about them; a test about the words themselves (the French
rendering, the rule cited in the reader's numbering, a page showing the message) reads the text.
"""

import contextlib

import pytest

from core.rules import RuleViolation


@contextlib.contextmanager
def refuses(code: str, **arguments):
    """Expect the block to be refused with `code` (and, if given, with these arguments, as the
    refusal's sentence holds them); yields pytest's ExceptionInfo, as pytest.raises does."""
    with pytest.raises(RuleViolation) as refused:
        yield refused
    violation = refused.value
    assert violation.code == code, f"refused with {violation.code!r}, not {code!r}: {violation}"
    for name, value in arguments.items():
        assert name in violation.arguments, f"{code} has no argument {name!r}: {violation.arguments}"
        assert violation.arguments[name] == value, f"{code}: {name}={violation.arguments[name]!r}, not {value!r}"
