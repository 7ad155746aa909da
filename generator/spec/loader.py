"""Load a YAML spec safely, keep the line of every key and item, and validate it against the
JSON Schema of its kind (one schema per kind, in schemas/). Errors name file, line and field."""
from __future__ import annotations

import os

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from ..colour import Colour, parse_colour
from ..errors import SpecError

SCHEMA_DIR = Path(__file__).parent / "schemas"
PathKey = tuple  # ("cards", 12, "count")


def format_field(path: PathKey) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


@dataclass
class Spec:
    """A validated spec: its data, where it came from, and the line of every node."""
    file: str
    data: dict
    lines: dict = field(default_factory=dict)
    path: Path | None = None  # the file on disk (`file` is how errors name it)

    @property
    def kind(self) -> str:
        return self.data["kind"]

    def line(self, path: PathKey) -> int | None:
        # The nearest ancestor that has a line: a key that is missing has its parent's line.
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path)

    def error(self, path: PathKey, message: str) -> SpecError:
        return SpecError(self.file, self.line(path), format_field(path), message)

    def colour(self, path: PathKey, palette: dict[str, Colour] | None = None) -> Colour:
        """The colour at path (a literal or a palette name), or an error naming its line."""
        value = self.data
        for part in path:
            value = value[part]
        try:
            return parse_colour(value, palette)
        except ValueError as exc:
            raise self.error(path, str(exc)) from None


# ---------------------------------------------------------------- YAML with line numbers

def _walk(node, value, path: PathKey, lines: dict, file: str) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode) and isinstance(value, dict):
        seen: dict = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key == "<<":
                continue
            if key in seen:
                raise SpecError(file, key_node.start_mark.line + 1, format_field(path + (key,)),
                                f"duplicate key (first given on line {seen[key]})")
            seen[key] = key_node.start_mark.line + 1
            if key in value:
                # A key's line is the key's own line, where a reader looks for it.
                _walk(value_node, value[key], path + (key,), lines, file)
                lines[path + (key,)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode) and isinstance(value, list):
        for i, (item_node, item) in enumerate(zip(node.value, value)):
            _walk(item_node, item, path + (i,), lines, file)


def parse_yaml(text: str, file: str) -> tuple[object, dict]:
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise SpecError(file, line, "", f"not valid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise SpecError(file, None, "", f"not valid YAML: {exc}") from None
    lines: dict = {}
    if node is not None:
        _walk(node, data, (), lines, file)
    return data, lines


# ---------------------------------------------------------------- schemas

@lru_cache(maxsize=None)
def _registry_and_kinds():
    resources, kinds = [], {}
    for path in sorted(SCHEMA_DIR.glob("*.yaml")):
        schema = yaml.safe_load(path.read_text())
        resources.append((path.name, DRAFT202012.create_resource(schema)))
        if path.stem != "common":
            kinds[path.stem] = schema
    return Registry().with_resources(resources), kinds


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_format_checker = jsonschema.FormatChecker()


@_format_checker.checks("colour", raises=ValueError)
def _is_colour(value) -> bool:
    # Palette names are resolved later, against the spec's own palette.
    if isinstance(value, str) and _IDENT.match(value.strip()):
        return True
    parse_colour(value)
    return True


def _show(value) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "nothing"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return str(value).lower() if isinstance(value, bool) else str(value)


_TYPE_WORDS = {"integer": "an integer", "number": "a number", "string": "a string",
               "object": "a mapping", "array": "a list", "boolean": "true or false"}


def _messages(err, spec: Spec):
    """Translate one jsonschema error into (path, message) pairs a user can act on."""
    path = tuple(err.absolute_path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    expected = schema.get("x-expected")
    v = err.validator
    if v in ("oneOf", "anyOf") and err.context:
        best = jsonschema.exceptions.best_match(err.context)
        if expected:
            yield path, f"expected {expected}, got {_show(err.instance)}"
        else:
            yield from _messages(best, spec)
        return
    if v == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        for key in sorted(set(err.instance) - set(allowed)):
            guess = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean '{guess[0]}'?)" if guess else f" (expected one of: {', '.join(allowed)})"
            yield path + (key,), f"unknown key{hint}"
        return
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        yield path + (missing,), "missing required key"
        return
    if v == "enum":
        yield path, f"expected one of {', '.join(map(str, err.validator_value))}, got {_show(err.instance)}"
        return
    if v == "format" and err.validator_value == "colour":
        cause = err.cause
        yield path, str(cause) if cause else f"expected a colour, got {_show(err.instance)}"
        return
    if expected:
        yield path, f"expected {expected}, got {_show(err.instance)}"
        return
    if v == "type":
        want = err.validator_value
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in (want if isinstance(want, list) else [want]))
        yield path, f"expected {words}, got {_show(err.instance)}"
        return
    yield path, err.message


def validate(data, lines: dict, file: str, kind: str | None = None) -> Spec:
    """Validate against the schema of `kind` (by default the spec's own `kind:` key)."""
    spec = Spec(file, data, lines)
    if not isinstance(data, dict):
        raise SpecError(file, 1, "", "expected a mapping at the top of the file")
    registry, kinds = _registry_and_kinds()
    if kind is None:
        kind = data.get("kind")
    if kind not in kinds:
        guess = difflib.get_close_matches(str(kind), list(kinds), n=1)
        hint = f" (did you mean '{guess[0]}'?)" if guess else ""
        raise spec.error(("kind",), f"unknown spec kind {_show(kind)}{hint}; known: {', '.join(sorted(kinds))}")
    validator = jsonschema.Draft202012Validator(kinds[kind], registry=registry,
                                                format_checker=_format_checker)
    problems = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        for path, message in _messages(err, spec):
            problems.append(spec.error(path, message))
    if problems:
        problems.sort(key=lambda e: (e.line or 0, e.field))
        raise SpecErrors(problems)
    return spec


class SpecErrors(SpecError):
    """Several errors in one spec; str() gives one line per error, in file order."""

    def __init__(self, errors: list[SpecError]):
        first = errors[0]
        super().__init__(first.file, first.line, first.field, first.message)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(SpecError.__str__(e) for e in self.errors)


def load_spec(path: str | Path, display: str | None = None) -> Spec:
    path = Path(path)
    file = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(file, None, "", f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SpecError(file, None, "", "not valid YAML: not UTF-8 text") from None
    data, lines = parse_yaml(text, file)
    spec = validate(data, lines, file)
    spec.path = path
    return spec


def load_related(spec: Spec, key: str) -> Spec:
    """The spec a path field of this one names (relative to this spec's file). Its errors name
    it as the user would: decks/x.yaml, not boards/../decks/x.yaml."""
    rel = spec.data[key]
    path = Path(spec.path or spec.file).parent / rel
    if not path.exists():
        raise spec.error((key,), f"no such file: {rel}")
    return load_spec(path, display=os.path.normpath(Path(spec.file).parent / rel))


def find_specs(root: Path) -> list[Path]:
    return sorted(p for d in ("decks", "boards") for p in (root / d).glob("*.yaml"))


def display_path(path: Path, root: Path | None) -> str:
    """A path as errors and build listings show it: relative to the project when it can be."""
    try:
        return str(path.resolve().relative_to((root or Path.cwd()).resolve()))
    except ValueError:
        return str(path)
