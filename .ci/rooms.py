#!/usr/bin/env python3
"""The shape of the code, checked: no Rust file over 650 lines, and no import circle between
the files of a crate.

A file depends on another when it names something defined there: through a `use` (followed
through re-exports to the file that defines the name) or through a path written out in code
(`crate::a::b::f(...)`). A `pub use` that only re-exports a child's item, for the crate's
public paths, is not a dependency of the file that holds it. Comments and string literals are
left out, and so are unit tests in `#[cfg(test)] mod tests`, which see their parent by design.

Usage: rooms.py  (from the repository's root; prints one line, exits 1 on a finding)
"""
import glob
import os
import re
import sys

MAX_LINES = 650

# Each tree of modules: its root directory, and the name it is mounted under in the crates
# that include it (`tests/common` is `crate::common` in every test crate).
TREES = [
    ("src", None),
    ("derive/src", None),
    ("derive-core/src", None),
    ("cli/src", None),
    ("cli/tests/cli", None),
    ("python/src", None),
    ("benches/peers/src", None),
    ("tests/common", "common"),
    ("tests/store_redb", None),
    ("tests/bigtable_emulator", None),
]
LENGTH_DIRS = ["src", "derive", "derive-core", "cli", "python/src", "fuzz/fuzz_targets", "benches", "tests", "examples"]


def module_path(root, path):
    parts = os.path.relpath(path, root)[:-3].split("/")
    if parts[-1] in ("lib", "mod") or parts == ["main"]:
        parts = parts[:-1]
    return tuple(parts)


def strip(source):
    source = source.split("#[cfg(test)]\nmod tests {")[0]
    source = re.sub(r'"(?:[^"\\]|\\.)*"', '""', source)
    return re.sub(r"//[^\n]*", "", source)


def split_top(text):
    parts, depth, current = [], 0, ""
    for c in text:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current)
    return parts


def expand(tree):
    """A use tree as (path, name) pairs: `a::{b, c as d}` is (a::b, b) and (a::c, d)."""
    tree = tree.strip()
    group = re.match(r"^((?:\w+::)*)\{(.*)\}$", tree, re.S)
    if group:
        prefix = [p for p in group.group(1).split("::") if p]
        pairs = []
        for part in split_top(group.group(2)):
            for path, name in expand(part):
                pairs.append((prefix, prefix[-1]) if path == ["self"] else (prefix + path, name))
        return pairs
    alias = re.match(r"^(.*?)\s+as\s+(\w+)$", tree, re.S)
    if alias:
        tree = alias.group(1)
    path = [p.strip() for p in tree.split("::") if p.strip()]
    return [(path, alias.group(2) if alias else path[-1])]


class Tree:
    def __init__(self, root, mount):
        self.mount = mount
        self.files = {module_path(root, f): f for f in glob.glob(root + "/**/*.rs", recursive=True)}
        self.text = {m: strip(open(f).read()) for m, f in self.files.items()}
        self.children, self.defined, self.uses = {}, {}, {}
        for m, src in self.text.items():
            self.children[m] = set(re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", src, re.M))
            self.defined[m] = set(
                re.findall(
                    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*"
                    r"(?:fn|struct|enum|trait|type|const|static|union)\s+(\w+)",
                    src,
                    re.M,
                )
            )
            self.defined[m] |= set(re.findall(r"macro_rules!\s*(\w+)", src))
            self.uses[m] = [
                (path, name, bool(u.group(1)))
                for u in re.finditer(r"^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);", src, re.M)
                for path, name in expand(u.group(2))
            ]

    def start(self, here, first, rest):
        if first == "crate":
            if self.mount and rest[:1] == [self.mount]:
                return (), rest[1:]
            return ((), rest) if not self.mount else (None, rest)
        if first == "self":
            return here, rest
        if first == "super":
            return here[:-1], rest
        if first in self.children.get(here, ()):
            return here + (first,), rest
        return None, rest

    def resolve(self, here, path, seen):
        """The module whose file defines what `path`, written in module `here`, names."""
        at, rest = self.start(here, path[0], path[1:])
        if at is None:
            for used, name, _ in self.uses.get(here, ()):
                if name == path[0] and (here, name) not in seen:
                    seen.add((here, name))
                    return self.resolve(here, used + path[1:], seen)
            return None
        while rest and rest[0] == "super":
            at, rest = at[:-1], rest[1:]
        for i, segment in enumerate(rest):
            if segment in self.children.get(at, ()):
                at += (segment,)
            elif segment in self.defined.get(at, ()):
                return at
            else:
                for used, name, _ in self.uses.get(at, ()):
                    if name == segment and (at, segment) not in seen:
                        seen.add((at, segment))
                        return self.resolve(at, used + rest[i + 1 :], seen) or at
                return at
        return at

    def edges(self):
        edges = {m: set() for m in self.files}
        for m, src in self.text.items():
            body = re.sub(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]*;", "", src, flags=re.M)
            targets = [
                path
                for path, name, public in self.uses[m]
                if not public or re.search(r"\b" + re.escape(name) + r"\b", body)
            ]
            targets += [p.group(1).split("::") for p in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)", body)]
            for path in targets:
                target = self.resolve(m, path, set())
                if target is not None and target != m and target in self.files:
                    edges[m].add(target)
        return edges


def circles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
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

    sys.setrecursionlimit(10_000)
    for v in edges:
        if v not in index:
            visit(v)
    return found


def main():
    problems = []
    files = sorted(
        f
        for d in LENGTH_DIRS
        for f in glob.glob(d + "/**/*.rs", recursive=True)
        if "/target/" not in f and not f.startswith("target/")
    )
    for f in files:
        lines = sum(1 for _ in open(f))
        if lines > MAX_LINES:
            problems.append(f"{f}: {lines} lines, over {MAX_LINES}: split it by concept")
    for root, mount in TREES:
        if not os.path.isdir(root):
            continue
        tree = Tree(root, mount)
        for component in circles(tree.edges()):
            names = ", ".join(tree.files[m] for m in component)
            problems.append(f"{root}: these files import each other in a circle: {names}")
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"{len(files)} files, none over {MAX_LINES} lines; {len(TREES)} module trees, no import circle")


if __name__ == "__main__":
    main()
