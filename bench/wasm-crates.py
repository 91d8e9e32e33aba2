#!/usr/bin/env python3
"""Sum a wasm file's code and data by crate, from twiggy's per-item sizes (docs/performance.md#bundle).

    python3 bench/wasm-crates.py FILE.wasm [N]     # the N largest (default 25)

The file needs its function names: the cargo output in target/wasm/wasm32-unknown-unknown/release/,
or that file through `wasm-bindgen --keep-debug` and `wasm-opt -Oz -g` to see what ships.
Needs twiggy (`cargo install twiggy --locked`). A function is counted for the crate its path
starts with (`<Self as Trait>::f`: Self's crate, or the trait's when Self is generic); data
segments and sections by name.
"""

import collections
import csv
import io
import re
import subprocess
import sys

CRATE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?=(?:\[[0-9a-f]+\])?::)")


def crate_of(item: str) -> str:
    if item.startswith(("data segment", "custom section", '"function names"', '"data names"')):
        return item
    if item.startswith(("type[", "import ", "export ", "elem[", "global[", "table[", "memory[")):
        return "(" + re.split(r"[\[ ]", item)[0] + ")"
    if item.startswith("__wbindgen_describe"):
        return "(wasm-bindgen descriptors)"
    # `<Self as Trait>::f`: Self's crate when Self is a path, else the trait's.
    impl = re.match(r"<([^<>]*?) as ([^>]*)>", item)
    if impl:
        found = CRATE.match(impl.group(1).lstrip("&*( ").removeprefix("mut ").removeprefix("dyn "))
        found = found or CRATE.search(impl.group(2))
    else:
        found = CRATE.search(item.lstrip("<&*( ").removeprefix("impl ").removeprefix("dyn "))
    return found.group(0) if found else "(other)"


def main() -> None:
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    table = subprocess.run(
        ["twiggy", "top", "-n", "10000000", "--format", "csv", path],
        capture_output=True, text=True, check=True,
    ).stdout
    sizes: collections.Counter[str] = collections.Counter()
    for row in csv.DictReader(io.StringIO(table)):
        name = row["Name"]
        if name.startswith(("Σ", "...")):
            continue
        sizes[crate_of(name)] += int(row["ShallowSize"])
    total = sum(sizes.values())
    for crate, size in sizes.most_common(count):
        print(f"{size:>10,}  {100 * size / total:5.1f} %  {crate}")
    print(f"{total:>10,}  100.0 %  {path}")


if __name__ == "__main__":
    main()
