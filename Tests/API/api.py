#!/usr/bin/env python3
"""The public API of every Wiring product, as the compiler sees it, against Tests/API/*.api.

    Tests/API/api.py check    # fails when the surface differs from the listings or a symbol has no doc comment
    Tests/API/api.py update   # writes the listings from the modules built

It reads the modules already built (no build of its own): `Wiring`, `WiringCommands`,
`WiringServiceLifecycle` and `WiringTesting` from `.build` (README's `swift test`), the trait
products from `.build-examples` (the examples build them with their traits on). Each module's
symbol graph comes from `swift symbolgraph-extract`; a listing has one line per public
declaration (its kind, its path, its declaration), sorted, so that a change to the surface is a
reviewed change to the listing. Members the compiler synthesizes (another module's protocol
extension's defaults) are left out. Every declaration written in the source has a doc comment
of its own, a protocol requirement's implementation too (what it does in that type); only what
the compiler declares implicitly (a synthesized `init(from:)` or `init(rawValue:)`, which has
no place in a file) has none.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LISTINGS = os.path.join(ROOT, "Tests", "API")
# Each product's module, and the build folder its public form is read from.
MODULES = {
    "Wiring": ".build",
    "WiringCommands": ".build",
    "WiringServiceLifecycle": ".build",
    "WiringTesting": ".build",
    "WiringHummingbird": ".build-examples",
    "WiringVapor": ".build-examples",
    "WiringConfiguration": ".build-examples",
    "WiringObservability": ".build-examples",
}


def triple():
    out = subprocess.run(["swift", "-print-target-info"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["target"]["unversionedTriple"]


def clang_arguments(scratch, target):
    """The C modules the Swift modules import (libyaml's, swift-nio's shims, …): their module
    maps and headers, as `swift build` passes them."""
    arguments = []
    debug = os.path.join(scratch, target, "debug")
    for folder in sorted(os.listdir(debug)):
        modulemap = os.path.join(debug, folder, "module.modulemap")
        if os.path.isfile(modulemap):
            arguments += ["-Xcc", "-fmodule-map-file=" + modulemap]
    for top in [os.path.join(scratch, "checkouts"), os.path.join(ROOT, "Sources")]:
        if not os.path.isdir(top):
            continue
        for path, folders, files in os.walk(top):
            if os.path.basename(path) == "include" or "module.modulemap" in files:
                arguments += ["-Xcc", "-I" + path]
                if "module.modulemap" in files:
                    arguments += ["-Xcc", "-fmodule-map-file=" + os.path.join(path, "module.modulemap")]
    return arguments


def symbol_graphs(module, scratch, target, output):
    modules = os.path.join(scratch, target, "debug", "Modules")
    if not os.path.exists(os.path.join(modules, module + ".swiftmodule")):
        sys.exit(f"api: {module} is not built in {scratch}: run README's `swift test` and the examples' builds first")
    command = ["swift", "symbolgraph-extract", "-module-name", module, "-target", target, "-I", modules,
               "-minimum-access-level", "public", "-skip-inherited-docs", "-output-dir", output] + clang_arguments(scratch, target)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"api: symbolgraph-extract failed for {module}:\n{result.stderr}")
    return sorted(f for f in os.listdir(output) if f == module + ".symbols.json" or f.startswith(module + "@"))


def surface(module, scratch, target):
    """The module's listing lines and the paths of its written symbols with no doc comment."""
    lines, undocumented = [], []
    with tempfile.TemporaryDirectory() as output:
        for name in symbol_graphs(module, scratch, target, output):
            extended = name[len(module) + 1:-len(".symbols.json")] if "@" in name else None
            with open(os.path.join(output, name)) as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                    continue
                path = ".".join(symbol["pathComponents"])
                if extended:
                    path = f"({extended}) {path}"
                kind = symbol["kind"]["identifier"].removeprefix("swift.")
                declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
                lines.append(f"{kind} {path}: {' '.join(declaration.split())}")
                written = "location" in symbol
                if written and not (symbol.get("docComment") or {}).get("lines"):
                    undocumented.append(f"{kind} {path}")
    return sorted(set(lines)), sorted(set(undocumented))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "check"
    if mode not in ("check", "update"):
        sys.exit("usage: Tests/API/api.py check|update")
    target = triple()
    failed = False
    for module, scratch in MODULES.items():
        lines, undocumented = surface(module, os.path.join(ROOT, scratch), target)
        listing = os.path.join(LISTINGS, module + ".api")
        text = "".join(line + "\n" for line in lines)
        if mode == "update":
            with open(listing, "w") as file:
                file.write(text)
            print(f"api: {module}: {len(lines)} public declarations written")
        else:
            recorded = open(listing).read().splitlines() if os.path.exists(listing) else []
            added = sorted(set(lines) - set(recorded))
            removed = sorted(set(recorded) - set(lines))
            if added or removed:
                failed = True
                print(f"api: {module}'s public API differs from Tests/API/{module}.api "
                      "(a reviewed change: Tests/API/api.py update, then commit the listing):")
                for line in removed:
                    print("  - " + line)
                for line in added:
                    print("  + " + line)
            else:
                print(f"api: {module}: {len(lines)} public declarations, as listed")
        if undocumented:
            failed = True
            print(f"api: {module}: {len(undocumented)} public symbols without a doc comment:")
            for path in undocumented:
                print("  " + path)
    sys.exit(1 if failed and mode == "check" else 0)


if __name__ == "__main__":
    main()
