#!/usr/bin/env python3
"""Print the root crate's module graph (src/**/*.rs) and its cycles; exit 1 on a cycle.

A node is a top-level module of `src/` (`ser`, `de`, `config`, ...), split one level further
under the modules in SPLIT (`wire::reader`, `json::parse`, ...). An edge A -> B is a path in
A's code that names B: `crate::B...` (in `use` lines or inline) or `super::...` resolved from
the file's own module path. Comments are ignored; `#[cfg(test)]` code counts like the rest
(a test module that imports upward is a circle too).

The edges in KNOWN (each with its reason) are printed and left out of the check.

Usage: python3 scripts/module-graph.py [--quiet] [SRC_DIR]
"""
import os
import re
import sys

SPLIT = {"wire", "json"}

# Edges known to close a circle, each with its reason; a circle through any other edge fails.
# Keep this empty but for what cannot move yet.
KNOWN: dict = {}


def module_path(src, path):
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return rel


def node(parts, modules=None):
    """The graph node of a module path (list of names below the crate root). Under a split
    module, a second segment that is no submodule (`wire::Reader`, a re-export) is the split
    module's root node."""
    if not parts:
        return "crate"
    if parts[0] in SPLIT and len(parts) > 1:
        sub = parts[0] + "::" + parts[1]
        if modules is None or sub in modules:
            return sub
    return parts[0]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    # Line comments, doc comments included; string literals containing `//` are rare here
    # and would only hide an edge, never invent one.
    return re.sub(r"//[^\n]*", "", text)


def use_paths(text, children=()):
    """Every path the code names through `crate::`/`super::`/`self::`, with `use` groups
    expanded one level (`use crate::a::{b, c::d}` gives `crate::a::b`, `crate::a::c::d`)."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        paths.extend((p, m.start()) for p in expand(re.sub(r"\s+", "", m.group(1))))
    body = re.sub(r"\buse\s+[^;]+;", lambda m: " " * len(m.group(0)), text)
    heads = "|".join(["crate", "super", "self"] + sorted(children))
    pattern = r"(?<![A-Za-z0-9_:])((?:" + heads + r")(?:::(?:super|[A-Za-z_][A-Za-z0-9_]*))+)"
    for m in re.finditer(pattern, body):
        paths.append((m.group(1), m.start()))
    return paths


def inline_mods(text):
    """The inline modules of a file (`mod tests { ... }`): (name, start, end) each, so that
    `super::` inside one is resolved from the inline module, not from the file's."""
    out = []
    for m in re.finditer(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{", text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += text[i] == "{"
            depth -= text[i] == "}"
            if depth == 0:
                break
            i += 1
        out.append((m.group(1), m.end(), i))
    return out


def expand(tree):
    i = tree.find("{")
    if i < 0:
        return [tree]
    prefix, inner = tree[:i], tree[i + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        if p:
            out.extend(prefix + q for q in expand(p))
    return out


def resolve(mod, children, root_names, path):
    segs = path.split("::")
    if segs[0] == "crate":
        # A name the crate root re-exports (`crate::Variant`) is the module it comes from.
        if len(segs) > 1 and segs[1] in root_names:
            return root_names[segs[1]] + segs[2:]
        return segs[1:]
    if segs[0] in children:
        # `use header::X;` in a `mod.rs`: a path relative to the module itself.
        return list(mod) + segs
    if segs[0] not in ("super", "self"):
        return None
    # The module a `self::`/`super::` path starts from: a `foo.rs` or `foo/mod.rs` file is
    # module `foo` either way.
    base = list(mod)
    i = 0
    if segs[0] == "self":
        i = 1
    while i < len(segs) and segs[i] == "super":
        base = base[:-1]
        i += 1
    return base + segs[i:]


REEXPORT = r"\bpub(?:\([a-z]+\))?\s+use\s+([^;]+);"


def is_child_reexport(tree, children):
    head = re.sub(r"\s+", "", tree).split("::")[0]
    if head == "self":
        head = re.sub(r"\s+", "", tree).split("::")[1]
    return head in children


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quiet = "--quiet" in sys.argv
    src = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "src")
    src = os.path.normpath(src)
    files = []
    for root, _, names in os.walk(src):
        files.extend(os.path.join(root, f) for f in sorted(names) if f.endswith(".rs"))
    files.sort()
    mod_paths = [module_path(src, p) for p in files]
    modules = {node(m) for m in mod_paths}
    texts = {tuple(m): strip_comments(open(p, encoding="utf-8").read()) for p, m in zip(files, mod_paths)}
    kids = {
        tuple(mod): {m[len(mod)] for m in mod_paths if len(m) == len(mod) + 1 and m[: len(mod)] == mod}
        for mod in mod_paths
    }
    # Re-exports: `pub(crate) use reader::{Reader, ...};` in wire/mod.rs makes `wire::Reader`
    # wire::reader's, and `pub use value::Variant;` in lib.rs makes `crate::Variant` value's.
    # A path through a re-export is an edge to where the item is defined; the re-export line
    # of a child's item is no edge of the parent's own.
    reexports = {}
    for mod, text in texts.items():
        for m in re.finditer(REEXPORT, text):
            for p in expand(re.sub(r"\s+", "", m.group(1))):
                target = resolve(list(mod), kids[mod], {}, p)
                if target:
                    reexports.setdefault(mod, {})[p.split("::")[-1]] = target

    def through(target):
        for _ in range(8):
            for i in range(len(target) - 1, -1, -1):
                names = reexports.get(tuple(target[:i]), {})
                if target[i] in names and names[target[i]] != target[: i + 1]:
                    target = names[target[i]] + target[i + 1 :]
                    break
            else:
                return target
        return target

    edges = {}
    for path, mod in zip(files, mod_paths):
        me = node(mod, modules)
        children = kids[tuple(mod)]
        text = texts[tuple(mod)]
        own = re.sub(REEXPORT, lambda m: "" if is_child_reexport(m.group(1), children) else m.group(0), text)
        inline = inline_mods(own)
        for p, at in use_paths(own, children):
            here = list(mod) + [name for name, a, b in inline if a <= at < b]
            target = resolve(here, children, {}, p)
            if not target:
                continue
            other = node(through(target), modules)
            # A split module's root contains its submodules: its own use of them is no edge
            # (otherwise every `super::` in a child would close a circle with its parent).
            if me in SPLIT and other.startswith(me + "::"):
                continue
            if other != me and other in modules and other != "crate":
                edges.setdefault(me, {}).setdefault(other, set()).add(os.path.relpath(path, src))

    if not quiet:
        for a in sorted(edges):
            print(f"{a} -> {', '.join(sorted(edges[a]))}")
    known = {a: {b: fs for b, fs in bs.items() if (a, b) not in KNOWN} for a, bs in edges.items()}
    for (a, b), why in sorted(KNOWN.items()):
        if b in edges.get(a, {}):
            print(f"\nknown edge {a} -> {b} left out of the check: {why}")
    cycles = find_cycles(known)
    edges = known
    if cycles:
        print(f"\n{len(cycles)} cycle(s) (strongly connected groups):")
        for comp in cycles:
            print("  " + " <-> ".join(comp))
            for a in comp:
                for b in sorted(edges.get(a, {})):
                    if b in comp:
                        print(f"    {a} -> {b}: {', '.join(sorted(edges[a][b]))}")
        return 1
    print("\nno cycle")
    return 0


def find_cycles(edges):
    """Tarjan's strongly connected components of size > 1 (and self loops, which the node
    function never makes)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(edges) | {b for a in edges for b in edges[a]}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


if __name__ == "__main__":
    sys.exit(main())
