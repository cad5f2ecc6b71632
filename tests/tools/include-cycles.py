#!/usr/bin/env python3
"""Include cycles between modules, as TAP.

A module is a file pair and its -private.h: pv-foo.c, pv-foo.h and
pv-foo-private.h are one module, and a .c without a header (pv-model-graph.c)
is one of its own. Module A depends on module B when a file of A includes a
header of B with #include "...". A cycle of such dependencies (a strongly
connected component of more than one module) means data does not flow one
way; each is printed with the #include lines that close it.

Usage: include-cycles.py SOURCE_ROOT FOLDER...  (folders below SOURCE_ROOT,
scanned as one tree, so that cycles across folders count too)."""
import collections
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def module_of(path):
    base = os.path.basename(path)[:-2]
    return base[:-len('-private')] if base.endswith('-private') else base


def dependencies(files):
    """module -> {module: first (file, line) that includes it}"""
    headers = {os.path.basename(p): p for p in files if p.endswith('.h')}
    edges = collections.defaultdict(dict)
    for path in files:
        m = module_of(path)
        with open(path, errors='replace') as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                header = os.path.basename(match.group(1))
                if header in headers and module_of(header) != m:
                    edges[m].setdefault(module_of(header), (path, number))
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan's
    algorithm, iterative), each sorted, in a fixed order."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def sources(root, folders):
    files = []
    for folder in folders:
        for directory, _, names in os.walk(os.path.join(root, folder)):
            files += [os.path.join(directory, n) for n in names if n.endswith(('.c', '.h'))]
    return sorted(files)


def report(edges, component, root):
    for m in component:
        for target, (path, line) in sorted(edges[m].items()):
            if target in component:
                print(f'#   {m} -> {target}: {os.path.relpath(path, root)}:{line}')


def planted_cycle_found():
    """The check itself: a tree whose a.c includes b.h and b.c includes a.h,
    beside c.c including a.h and a-private.h (no cycle), must give exactly
    the cycle {a, b}."""
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, 'src'))
        for name, text in {'a.h': '', 'a-private.h': '#include "a.h"\n', 'a.c': '#include "a-private.h"\n#include "b.h"\n',
                           'b.h': '', 'b.c': '#include "b.h"\n#include "a.h"\n',
                           'c.h': '', 'c.c': '#include "a.h"\n#include "c.h"\n'}.items():
            with open(os.path.join(tmp, 'src', name), 'w') as f:
                f.write(text)
        return cycles(dependencies(sources(tmp, ['src']))) == [['a', 'b']]


def main():
    root, folders = sys.argv[1], sys.argv[2:]
    print('1..2')
    print(('ok' if planted_cycle_found() else 'not ok') + ' 1 - a planted cycle is found')
    files = sources(root, folders)
    edges = dependencies(files)
    found = cycles(edges)
    for component in found:
        print('# cycle: ' + ' <-> '.join(component))
        report(edges, component, root)
    print(('ok' if not found else 'not ok')
          + f' 2 - no include cycle among the {len(set(map(module_of, files)))} modules of ' + ', '.join(folders))


if __name__ == '__main__':
    main()
