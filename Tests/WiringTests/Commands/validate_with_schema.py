"""Validates YAML manifests against the JSON Schema their first line names.

Usage: python3 validate_with_schema.py FILE...
Prints 'ok FILE' or 'invalid FILE: message' per file; exits 1 if any is invalid.
"""
import json
import os
import sys

import jsonschema
import yaml


class Loader(yaml.SafeLoader):
    pass


def plain(loader, node):
    """Wiring's own tags (!secret, !replace, !service, !tagged) read as the plain value they tag."""
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


for tag in ("!secret", "!replace", "!service", "!tagged"):
    Loader.add_constructor(tag, plain)

failed = False
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        first = handle.readline()
        handle.seek(0)
        document = yaml.load(handle, Loader=Loader)
    marker = "$schema="
    if marker not in first:
        print(f"invalid {path}: no '# yaml-language-server: $schema=' first line")
        failed = True
        continue
    schema_path = os.path.join(os.path.dirname(path), first.split(marker, 1)[1].strip())
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.path))
    if errors:
        failed = True
        print(f"invalid {path}: {'/'.join(map(str, errors[0].path))}: {errors[0].message}")
    else:
        print(f"ok {path}")
sys.exit(1 if failed else 0)
