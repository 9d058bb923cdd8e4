#!/usr/bin/env python3
"""Fails when an include in Araios's headers or sources runs back up the layers.

The layers, lowest first (a file may include only its own layer and those below it):
  core      araios/{error,types,mode,hash,format_options,spmv_options,kernel_registry,reference_spmv,reference_spgemm,vector_ops}.hpp,
            araios/detail/, araios/io/, araios/primitives/, src/io/
  formats   araios/formats/ (the formats' structs, conversions, kernels and kernel parts)
  backends  araios/backends/ (hand-written kernel parts; they include kernel-part headers only,
            never a format's *_spmv.hpp or *_convert.hpp)
  entry     araios/{spmv,spgemm,operator,kernel_builders,araios,distributed}.hpp, araios/solvers/, araios/model/,
            araios/spgemm/, araios/distributed/,
            src/ (the rest)
tools/, bench/ and tests/ sit above the library and may include any of it; the library never
includes them (they are not on its include path). Every header under include/araios must belong
to a layer: a new top-level header has to be added to the table below.

Usage: scripts/check_layers.py [REPO]   (exit 0 when every include points down, 1 otherwise)
       scripts/check_layers.py --self-test (plants each kind of violation in a scratch tree)
"""
import pathlib
import re
import sys

LAYERS = ["core", "formats", "backends", "entry"]
CORE_TOP = {"error.hpp", "types.hpp", "mode.hpp", "hash.hpp", "format_options.hpp", "kernel_registry.hpp",
            "reference_spmv.hpp", "vector_ops.hpp", "seeded_vector.hpp",
            "format_footprints.hpp", "spmv_options.hpp", "reference_spgemm.hpp"}
ENTRY_TOP = {"spmv.hpp", "operator.hpp", "kernel_builders.hpp", "araios.hpp", "instantiations.hpp", "spgemm.hpp",
             "distributed.hpp"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](araios/[^>"]+)[>"]', re.M)


def layer_of(path):
    """The layer of a header, by its path relative to include/ (araios/...), or None."""
    parts = path.split("/")
    if parts[0] != "araios":
        return None
    if len(parts) == 2:
        if parts[1] in CORE_TOP:
            return "core"
        if parts[1] in ENTRY_TOP:
            return "entry"
        return None
    return {"detail": "core", "io": "core", "primitives": "core", "formats": "formats", "backends": "backends",
            "model": "entry", "solvers": "entry", "spgemm": "entry",
            "distributed": "entry"}.get(parts[1])


def check(repo):
    """The problems found in the tree at `repo`, and the number of files and includes read."""
    problems = []
    files = []
    for f in sorted((repo / "include").rglob("*.hpp")):
        rel = f.relative_to(repo / "include").as_posix()
        layer = layer_of(rel)
        if layer is None:
            problems.append(f"include/{rel}: belongs to no layer; add it to the table in scripts/check_layers.py")
            continue
        files.append((f, rel, layer))
    for f in sorted((repo / "src").rglob("*.[ch]pp")) if (repo / "src").is_dir() else []:
        rel = f.relative_to(repo).as_posix()
        files.append((f, rel, "core" if rel.startswith("src/io/") else "entry"))
    checked = 0
    for f, rel, layer in files:
        text = f.read_text()
        for number, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            checked += 1
            target = m.group(1)
            target_layer = layer_of(target)
            where = f"{rel if rel.startswith('src/') else 'include/' + rel}:{number}"
            if target_layer is None:
                problems.append(f"{where}: includes {target}, which belongs to no layer")
            elif LAYERS.index(target_layer) > LAYERS.index(layer):
                problems.append(f"{where}: a {layer} file includes {target} ({target_layer}); "
                                f"expected only {', '.join(LAYERS[:LAYERS.index(layer) + 1])}")
            elif layer == "backends" and target_layer == "formats" and re.search(r"_(spmv|convert)\.hpp$", target):
                problems.append(f"{where}: a backend file includes {target}; expected the format's kernel-part "
                                "headers only (its struct, *_kernel_parts.hpp, *_lanes.hpp)")
    return problems, len(files), checked


def self_test():
    """Each planted violation must be found, and a clean tree must pass."""
    import tempfile
    cases = {
        "core includes a format": ("araios/primitives/p.hpp", "araios/formats/csr/csr.hpp"),
        "format includes the entry layer": ("araios/formats/csr/csr_spmv.hpp", "araios/spmv.hpp"),
        "format includes a backend": ("araios/formats/csr/csr_spmv.hpp", "araios/backends/cuda/x.hpp"),
        "backend includes a format's SpMV": ("araios/backends/cuda/x.hpp", "araios/formats/csr/csr_spmv.hpp"),
        "unknown top-level header": ("araios/stray.hpp", "araios/error.hpp"),
    }
    failures = 0
    for label, (source, target) in list(cases.items()) + [("clean", ("araios/spmv.hpp", "araios/formats/x.hpp"))]:
        with tempfile.TemporaryDirectory() as tmp:
            f = pathlib.Path(tmp, "include", source)
            f.parent.mkdir(parents=True)
            f.write_text(f"#pragma once\n#include <{target}>\n")
            problems, _, _ = check(pathlib.Path(tmp))
            if bool(problems) != (label != "clean"):
                print(f"self-test: {label}: expected {'a problem' if label != 'clean' else 'none'}, got {problems}")
                failures += 1
    print(f"check_layers self-test: {len(cases) + 1 - failures} passed, {failures} failed")
    return 1 if failures else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        return self_test()
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    problems, files, checked = check(repo)
    for p in problems:
        print(p)
    print(f"check_layers: {files} files, {checked} includes, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
