#!/usr/bin/env python3
"""Sum a wasm file's code and data by crate, before and after gzip (docs/performance.md#bundle).

    python3 bench/wasm-crates.py FILE.wasm [N]            # the N largest crates (default 25)
    python3 bench/wasm-crates.py FILE.wasm N 'PATTERN'    # and the N largest functions matching
                                                          # the regular expression PATTERN

The file needs its function names: the cargo output in target/wasm/wasm32-unknown-unknown/release/,
or that file through `wasm-bindgen --keep-debug` and `wasm-opt -Oz -g` to see what ships.
Reads the wasm itself (no other tool). A function is counted for the crate its path starts with
(`<Self as Trait>::f`: Self's crate, or the trait's when Self is generic); data segments and
sections by name, custom sections (names, producers) left out. The "gzip" column is each crate's function bodies (in file order) through
gzip -9 on their own: an estimate of its share of the gzipped file, since gzip's window spans
neighbouring crates' code too (the column's sum exceeds the file's gzipped size by a few per cent).
"""

import collections
import gzip
import re
import sys

CRATE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?=(?:\[[0-9a-f]+\])?::)")


def crate_of(item: str) -> str:
    # `<Self as Trait>::f`: Self's crate when Self is a path, else the trait's.
    impl = re.match(r"<([^<>]*?) as ([^>]*)>", item)
    if impl:
        found = CRATE.match(impl.group(1).lstrip("&*( ").removeprefix("mut ").removeprefix("dyn "))
        found = found or CRATE.search(impl.group(2))
    else:
        found = CRATE.search(item.lstrip("<&*( ").removeprefix("impl ").removeprefix("dyn "))
    if item.startswith("__wbindgen_describe"):
        return "(wasm-bindgen descriptors)"
    return found.group(0) if found else "(other)"


def leb(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def name(buf: bytes, pos: int) -> tuple[str, int]:
    size, pos = leb(buf, pos)
    return buf[pos : pos + size].decode("utf-8", "replace"), pos + size


def sections(buf: bytes):
    assert buf[:4] == b"\0asm", "not a wasm file"
    pos = 8
    while pos < len(buf):
        kind = buf[pos]
        size, start = leb(buf, pos + 1)
        yield kind, buf[start : start + size]
        pos = start + size


def imported_functions(body: bytes) -> int:
    count, pos = leb(body, 0)
    functions = 0
    for _ in range(count):
        _, pos = name(body, pos)
        _, pos = name(body, pos)
        kind = body[pos]
        pos += 1
        if kind == 0:  # function: type index
            _, pos = leb(body, pos)
            functions += 1
        elif kind == 1:  # table: reftype, limits
            pos += 1
            flags = body[pos]
            _, pos = leb(body, pos + 1)
            if flags & 1:
                _, pos = leb(body, pos)
        elif kind == 2:  # memory: limits
            flags = body[pos]
            _, pos = leb(body, pos + 1)
            if flags & 1:
                _, pos = leb(body, pos)
        elif kind == 3:  # global: valtype, mutability
            pos += 2
        else:
            raise ValueError(f"import kind {kind}")
    return functions


def main() -> None:
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    pattern = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
    buf = open(path, "rb").read()
    imports = 0
    bodies: list[bytes] = []
    names: dict[int, str] = {}
    other: collections.Counter[str] = collections.Counter()
    for kind, body in sections(buf):
        if kind == 2:
            imports = imported_functions(body)
            other["(imports)"] += len(body)
        elif kind == 10:
            total, pos = leb(body, 0)
            for _ in range(total):
                size, start = leb(body, pos)
                bodies.append(body[start : start + size])
                pos = start + size
        elif kind == 11:
            segments, pos = leb(body, 0)
            other["data segments"] += len(body)
        elif kind == 0:
            section, pos = name(body, 0)
            if section == "name":
                while pos < len(body):
                    sub = body[pos]
                    size, start = leb(body, pos + 1)
                    if sub == 1:
                        entries, at = leb(body, start)
                        for _ in range(entries):
                            index, at = leb(body, at)
                            names[index], at = name(body, at)
                    pos = start + size
            # Custom sections (names, producers, target features) are not shipped.
        else:
            other[f"(section {kind})"] += len(body)
    by_crate: dict[str, list[bytes]] = collections.defaultdict(list)
    functions: list[tuple[int, str]] = []
    for i, code in enumerate(bodies):
        label = names.get(imports + i, f"function[{imports + i}]")
        by_crate[crate_of(label)].append(code)
        if pattern and pattern.search(label):
            functions.append((len(code), label))
    rows = [(sum(map(len, codes)), len(gzip.compress(b"".join(codes), 9)), crate)
            for crate, codes in by_crate.items()]
    rows += [(size, len(gzip.compress(data_of(buf, what), 9)) if what == "data segments" else 0, what)
             for what, size in other.items()]
    total = sum(size for size, _, _ in rows)
    zipped = sum(z for _, z, _ in rows)
    print(f"{'bytes':>10}  {'share':>7}  {'gzip':>9}  {'share':>7}  crate")
    for size, z, crate in sorted(rows, reverse=True)[:count]:
        print(f"{size:>10,}  {100 * size / total:5.1f} %  {z:>9,}  {100 * z / zipped:5.1f} %  {crate}")
    print(f"{total:>10,}  100.0 %  {zipped:>9,}  100.0 %  {path} ({len(gzip.compress(buf, 9)):,} gzipped whole)")
    if pattern:
        matched = sum(size for size, _ in functions)
        print(f"\n{len(functions)} functions matching {pattern.pattern!r}: {matched:,} bytes")
        for size, label in sorted(functions, reverse=True)[:count]:
            print(f"{size:>10,}  {label[:160]}")


def data_of(buf: bytes, _what: str) -> bytes:
    return b"".join(body for kind, body in sections(buf) if kind == 11)


if __name__ == "__main__":
    main()
