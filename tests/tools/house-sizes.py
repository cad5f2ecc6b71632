#!/usr/bin/env python3
"""The house's sizes, as TAP: no C file over MAX_FILE lines and no function
over MAX_FUNCTION lines in the folders given (tests and generated tables are
not among them).

Functions are found the way GNU style writes them: the name at column 0,
followed by '(' (`pv_plan_check (const PvPlan *plan)`), the body's '{' and
'}' alone at column 0. A function written another way is not seen; the
self-test below plants one of each size to show what is.

Usage: house-sizes.py SOURCE_ROOT FOLDER..."""
import os
import re
import sys
import tempfile

MAX_FILE = 800
MAX_FUNCTION = 120

NAME = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*) \(')


def functions(lines):
    """(name, first line, length) of each function definition: from the line
    with its name to the closing brace."""
    name, start, in_body = None, 0, False
    for number, line in enumerate(lines, 1):
        match = NAME.match(line)
        if not in_body and match:
            name, start = match.group(1), number
        elif name and line.startswith('{'):
            in_body = True
        elif in_body and line.startswith('}'):
            yield name, start, number - start + 1
            name, in_body = None, False
        elif name and not in_body and line.rstrip().endswith(';'):
            name = None  # a declaration, not a definition


def findings(path):
    with open(path, errors='replace') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) > MAX_FILE:
        yield f'{path}: {len(lines)} lines (at most {MAX_FILE})'
    for name, start, length in functions(lines):
        if length > MAX_FUNCTION:
            yield f'{path}:{start}: {name} is {length} lines (at most {MAX_FUNCTION})'


def sources(root, folders):
    """The .c files below each folder, as paths relative to root."""
    for folder in folders:
        for top, dirs, names in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for n in sorted(names):
                if n.endswith('.c'):
                    yield os.path.relpath(os.path.join(top, n), root)


def self_test():
    """The checker sees a long function and a long file, and passes short ones."""
    body = ['  x++;'] * (MAX_FUNCTION - 3)
    short = ['static void', 'short_one (void)', '{'] + body + ['}']
    long = ['static void', 'long_one (int x)', '{'] + body + ['  x++;', '}']
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'planted.c')
        with open(path, 'w') as f:
            f.write('\n'.join(short + long + ['int declared (void);'] + [''] * MAX_FILE) + '\n')
        got = list(findings(path))
    return (len(got) == 2 and 'long_one is 121 lines' in got[1] and f'lines (at most {MAX_FILE})' in got[0]), got


def main():
    root, folders = sys.argv[1], sys.argv[2:]
    ok, got = self_test()
    print('1..2')
    print(('ok' if ok else 'not ok') + ' 1 - a planted 121-line function and a 1,000-line file are found')
    if not ok:
        print('# found: ' + repr(got))
    os.chdir(root)
    bad = [finding for path in sources('.', folders) for finding in findings(path)]
    for finding in bad:
        print('# ' + finding)
    print(('not ok' if bad else 'ok') + f' 2 - no file over {MAX_FILE} lines, no function over {MAX_FUNCTION} lines'
          f' in {", ".join(folders)}')
    return 1 if bad or not ok else 0


if __name__ == '__main__':
    sys.exit(main())
