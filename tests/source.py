"""The product's own source read as a syntax tree, for the tests that check its shape (layers,
function length, refusal codes, game declarations).

Parsed in a thread of its own: CPython 3.11.7's ast module can fail with "SystemError: AST
constructor recursion depth mismatch" when the thread that calls it has run deep recursion
before (CPython gh-106905, fixed in 3.11.8); a pytest worker that ran the fuzz tests first may
have. A new thread starts with its recursion counters whole, and the tree is the same.
"""

import ast
from concurrent.futures import ThreadPoolExecutor


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(ast.parse, source, filename).result()
