"""Reading a records file (cage-records/1) safely, before the importer looks at what it says.

A records file is JSON text in UTF-8. What no such file holds is refused here, each with one
problem line naming where it is and the rule, and nothing is imported:

- bytes that are not UTF-8, and text that is not JSON;
- NaN, Infinity and numbers too large for a float (not JSON numbers: Python's reader takes them);
- a key that appears twice in one object (JSON readers keep one of the two silently);
- nesting deeper than any records file nests (Python's reader gives up with a RecursionError);
- in any string: more than MAX_TEXT characters, NUL and other control characters, and halves
  of a character (unpaired surrogates, which no database stores);
- whole numbers of more than MAX_DIGITS digits (Python refuses to read those past 4,300 digits
  with an error of its own; the importer's bounds refuse the smaller ones by name).

`document_problems` walks the data without recursion, so that the importer, which reads only the
parts of the format it knows, never meets any of this, and a value it echoes back is short.
"""

import json
import math
import re
import unicodedata

from django.utils.translation import gettext as _

from core.money import count_text
from core.rules import cite

FORMAT_RULE = "cage-records/1"
# The format nests 6 levels (file, days, a day, records, a record, its chips or signatures);
# extensions get some room.
MAX_DEPTH = 12
MAX_TEXT = 1000
MAX_DIGITS = 100
MAX_PROBLEMS = 50
TEXT_CONTROLS = {"\t", "\n", "\r"}
# The characters no text of a records file holds, found with one search instead of a look at each
# character's category: Unicode's control characters (category Cc, U+0000-U+001F and U+007F-U+009F,
# fixed by the standard) but the three above, and the halves of a character (Cs, the surrogates).
NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def cited(message, rule=FORMAT_RULE) -> str:
    """`what is wrong (rule)`, as a RuleViolation reads, the rule cited in the reader's language;
    by default the format's own name, which reads the same in every language."""
    return _("%(message)s (%(rule)s)") % {"message": message, "rule": cite(rule)}


def problem_at(where: str, problem) -> str:
    """One problem line: `FIELD: what is wrong (rule)`. FIELD is the file's own name for the place
    ("file", "event.slug", "days[0].records[3].chips"), the same in every language."""
    return _("%(where)s: %(problem)s") % {"where": where, "problem": problem}


class _Refused(ValueError):
    """A JSON value the format refuses, raised from inside the JSON reader."""


def _no_duplicate_keys(pairs):
    seen = set()
    for key, _value in pairs:
        if key in seen:
            raise _Refused(
                problem_at(
                    "file",
                    cited(
                        _("the key %(key)s appears twice in one object; each key of an object appears once")
                        % {"key": _short(key)}
                    ),
                )
            )
        seen.add(key)
    return dict(pairs)


def _no_constant(name):
    raise _Refused(
        problem_at(
            "file", cited(_("%(name)s is not a JSON number; amounts and counts are numbers or text") % {"name": name})
        )
    )


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(
            problem_at("file", cited(_("the number %(number)s is too large to be read") % {"number": _short(text)}))
        )
    return value


def _bounded_int(text):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(
            problem_at(
                "file",
                cited(
                    _("a number of %(digits)s digits is beyond any number of the records format")
                    % {"digits": count_text(len(text.lstrip("-")))}
                ),
            )
        )
    return int(text)


def load(raw: bytes):
    """The JSON value of a records file's bytes; ValueError with the problem line when it is not one."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            problem_at(
                "file",
                cited(
                    _("the byte %(byte)s at position %(position)s is not UTF-8; a records file is JSON text in UTF-8")
                    % {"byte": f"0x{raw[exc.start]:02x}", "position": exc.start}
                ),
            )
        ) from None
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=_no_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
        )
    except _Refused as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:
        raise ValueError(
            problem_at(
                "file",
                cited(
                    _("nested too deeply to be read; a records file nests %(levels)s levels at most")
                    % {"levels": MAX_DEPTH}
                ),
            )
        ) from None
    except json.JSONDecodeError as exc:
        raise ValueError(
            problem_at(
                "file",
                cited(
                    _("not JSON: %(error)s at line %(line)s, column %(column)s")
                    % {"error": exc.msg, "line": exc.lineno, "column": exc.colno}
                ),
            )
        ) from None


def _where(path) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or "file"


def _short(text, longest=40) -> str:
    shown = text if len(text) <= longest else text[:longest] + "…"
    return json.dumps(shown)


def _text_problem(text: str) -> str | None:
    if len(text) > MAX_TEXT:
        return _("%(length)s characters of text; a text of the records format is at most %(most)s") % {
            "length": count_text(len(text)),
            "most": count_text(MAX_TEXT),
        }
    found = NOT_TEXT.search(text)
    if found is None:
        return None
    character = found.group()
    if unicodedata.category(character) == "Cs":
        return _("%(code)s is half of a character (an unpaired surrogate), not text") % {
            "code": f"U+{ord(character):04X}"
        }
    return _("the control character %(code)s is not text") % {"code": f"U+{ord(character):04X}"}


def document_problems(data) -> list[str]:
    """What in the whole document no records file holds, one line each (at most MAX_PROBLEMS)."""
    problems = []
    stack = [((), data, 1)]
    while stack and len(problems) < MAX_PROBLEMS:
        path, node, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(
                problem_at(
                    _where(path),
                    cited(_("nested deeper than the %(levels)s levels of a records file") % {"levels": MAX_DEPTH}),
                )
            )
        elif isinstance(node, dict):
            children = []
            for key, value in node.items():
                if not isinstance(key, str):
                    problems.append(
                        problem_at(_where(path), cited(_("the key %(key)s is not text") % {"key": f"{key!r:.40}"}))
                    )
                    continue
                problem = _text_problem(key)
                if problem:
                    problems.append(problem_at(_where(path), cited(_("a key: %(problem)s") % {"problem": problem})))
                    continue
                children.append((path + (key,), value, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(node, list):
            stack.extend(reversed([(path + (i,), value, depth + 1) for i, value in enumerate(node)]))
        elif isinstance(node, str):
            problem = _text_problem(node)
            if problem:
                problems.append(problem_at(_where(path), cited(problem)))
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            # Smaller numbers are refused by their field's own bound, by name.
            if node.bit_length() > MAX_DIGITS * 10 // 3:
                problems.append(
                    problem_at(
                        _where(path), cited(_("a number of more than %(digits)s digits") % {"digits": MAX_DIGITS})
                    )
                )
        elif isinstance(node, float):
            if not math.isfinite(node):
                problems.append(problem_at(_where(path), cited(_("%(value)s is not a JSON number") % {"value": node})))
        else:
            problems.append(
                problem_at(_where(path), cited(_("a %(type)s is not a JSON value") % {"type": type(node).__name__}))
            )
    if stack and len(problems) >= MAX_PROBLEMS:
        problems.append(
            problem_at(
                "file", cited(_("more problems not listed; the first %(count)s are above") % {"count": MAX_PROBLEMS})
            )
        )
    return problems
