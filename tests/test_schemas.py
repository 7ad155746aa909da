"""The schemas themselves: every number, text, list and map a spec or record may hold has an upper
bound, so that no shared file can ask for unbounded work (a count of ten million, a page of
several metres, a name of a megabyte). A new schema field without one fails here."""
from pathlib import Path

import pytest
import yaml

# common.yaml, and each game's own (in its folder: a game is one folder)
GENERATOR = Path(__file__).resolve().parent.parent / "generator"
SCHEMAS = sorted([*(GENERATOR / "spec" / "schemas").glob("*.yaml"), *(GENERATOR / "games").glob("*/schemas/*.yaml")])


def test_every_schema_is_checked():
    names = [p.name for p in SCHEMAS]
    assert "common.yaml" in names and len(names) == len(set(names)) >= 20


def unbounded(node, path=""):
    if isinstance(node, dict):
        types = node.get("type")    # (in a `properties` mapping, "type" may be a property's name)
        types = types if isinstance(types, list) else [types] if isinstance(types, str) else []
        if not ({"$ref", "const", "enum"} & set(node)):
            if {"integer", "number"} & set(types) and not {"maximum", "exclusiveMaximum"} & set(node):
                yield f"{path}: a number with no maximum"
            if "string" in types and "maxLength" not in node:
                yield f"{path}: a string with no maxLength"
            if "array" in types and "maxItems" not in node:
                yield f"{path}: a list with no maxItems"
            if "object" in types and isinstance(node.get("additionalProperties"), dict) \
                    and "maxProperties" not in node:
                yield f"{path}: a map with no maxProperties"
        for key, value in node.items():
            yield from unbounded(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from unbounded(value, f"{path}/{i}")


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda p: p.stem)
def test_every_value_is_bounded(schema):
    # (our own files, read by libyaml where it is installed: the same data, a tenth of the time)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    assert list(unbounded(yaml.load(schema.read_text(), Loader=loader))) == []


def test_the_check_can_fail():
    assert list(unbounded({"type": "object", "properties": {"n": {"type": "integer"}}})) == \
        ["/properties/n: a number with no maximum"]
