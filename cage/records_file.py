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
import unicodedata

FORMAT_RULE = "cage-records/1"
# The format nests 6 levels (file, days, a day, records, a record, its chips or signatures);
# extensions get some room.
MAX_DEPTH = 12
MAX_TEXT = 1000
MAX_DIGITS = 100
MAX_PROBLEMS = 50
TEXT_CONTROLS = {"\t", "\n", "\r"}


class _Refused(ValueError):
    """A JSON value the format refuses, raised from inside the JSON reader."""


def _no_duplicate_keys(pairs):
    seen = set()
    for key, _value in pairs:
        if key in seen:
            raise _Refused(
                f"file: the key {_short(key)} appears twice in one object; each key of an object "
                f"appears once ({FORMAT_RULE})"
            )
        seen.add(key)
    return dict(pairs)


def _no_constant(name):
    raise _Refused(f"file: {name} is not a JSON number; amounts and counts are numbers or text ({FORMAT_RULE})")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"file: the number {_short(text)} is too large to be read ({FORMAT_RULE})")
    return value


def _bounded_int(text):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(
            f"file: a number of {len(text.lstrip('-')):,} digits is beyond any number of the records format "
            f"({FORMAT_RULE})"
        )
    return int(text)


def load(raw: bytes):
    """The JSON value of a records file's bytes; ValueError with the problem line when it is not one."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"file: the byte 0x{raw[exc.start]:02x} at position {exc.start} is not UTF-8; a records file is "
            f"JSON text in UTF-8 ({FORMAT_RULE})"
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
            f"file: nested too deeply to be read; a records file nests {MAX_DEPTH} levels at most ({FORMAT_RULE})"
        ) from None
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"file: not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno} ({FORMAT_RULE})"
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
        return f"{len(text):,} characters of text; a text of the records format is at most {MAX_TEXT:,}"
    for character in text:
        category = unicodedata.category(character)
        if category == "Cc" and character not in TEXT_CONTROLS:
            return f"the control character U+{ord(character):04X} is not text"
        if category == "Cs":
            return f"U+{ord(character):04X} is half of a character (an unpaired surrogate), not text"
    return None


def document_problems(data) -> list[str]:
    """What in the whole document no records file holds, one line each (at most MAX_PROBLEMS)."""
    problems = []
    stack = [((), data, 1)]
    while stack and len(problems) < MAX_PROBLEMS:
        path, node, depth = stack.pop()
        where = _where(path)
        if depth > MAX_DEPTH:
            problems.append(f"{where}: nested deeper than the {MAX_DEPTH} levels of a records file ({FORMAT_RULE})")
        elif isinstance(node, dict):
            children = []
            for key, value in node.items():
                if not isinstance(key, str):
                    problems.append(f"{where}: the key {key!r:.40} is not text ({FORMAT_RULE})")
                    continue
                problem = _text_problem(key)
                if problem:
                    problems.append(f"{where}: a key: {problem} ({FORMAT_RULE})")
                    continue
                children.append((path + (key,), value, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(node, list):
            stack.extend(reversed([(path + (i,), value, depth + 1) for i, value in enumerate(node)]))
        elif isinstance(node, str):
            problem = _text_problem(node)
            if problem:
                problems.append(f"{where}: {problem} ({FORMAT_RULE})")
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            # Smaller numbers are refused by their field's own bound, by name.
            if node.bit_length() > MAX_DIGITS * 10 // 3:
                problems.append(f"{where}: a number of more than {MAX_DIGITS} digits ({FORMAT_RULE})")
        elif isinstance(node, float):
            if not math.isfinite(node):
                problems.append(f"{where}: {node} is not a JSON number ({FORMAT_RULE})")
        else:
            problems.append(f"{where}: a {type(node).__name__} is not a JSON value ({FORMAT_RULE})")
    if stack and len(problems) >= MAX_PROBLEMS:
        problems.append(f"file: more problems not listed; the first {MAX_PROBLEMS} are above ({FORMAT_RULE})")
    return problems
