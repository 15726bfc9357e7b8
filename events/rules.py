"""The one exception every refusal raises: a clear message that names the rule it applies."""

from django.core.exceptions import ValidationError

# Told of each refusal as it is made, with the RuleViolation: the audit trail records the refusals
# of a request once it has been answered (audit.context.note_refusal, registered by audit.apps).
refusal_listeners: list = []


class RuleViolation(ValidationError):
    """Bad input refused by a rule. Nothing was changed.

    `rule` is the section to cite (for example "T&C 3.7"); the message ends with it so that a
    cashier, an importer log line and a test all read the same sentence.
    """

    def __init__(self, message: str, rule: str, *, field: str | None = None):
        self.rule = rule
        self.field = field
        self.text = f"{message} ({rule})"
        super().__init__(self.text)
        for listener in refusal_listeners:
            listener(self)

    def __str__(self):
        return self.text
