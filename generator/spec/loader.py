"""Load a YAML spec safely, keep the line of every key and item, and validate it against the
JSON Schema of its kind (one schema per kind, in schemas/). Errors name file, line and field."""
from __future__ import annotations

import copy
import hashlib
import os

import difflib
import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..colour import Colour, parse_colour
from ..errors import SpecError, hidden_problem, show
from ..inputs import MAX_SPEC_BYTES, ReferenceError_, confined, decode_text, read_bytes, spec_tree

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
    # What its checks found worth a word that is no error (a column that looks like a count but
    # makes no copies): one line each, said by the command that checked it.
    notes: dict = field(default_factory=dict)

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

    def field_showing(self, text: str) -> PathKey | None:
        """The field whose text a drawing shows as `text` (as it is, in capitals, or a line of it,
        or within a longer line such as "CONTINUO: THE RULES"), or None: where a drawing's error
        about a text is the spec's. The closest match wins: the same text, then the shortest
        value holding it, then the longest value within it; the first in the file on a tie."""
        def norm(t: str) -> str:
            return " ".join(t.split()).casefold()
        wanted = norm(text)
        if len(wanted) < 2:
            return None
        best, todo = None, [((), self.data)]
        while todo:
            path, node = todo.pop()
            if isinstance(node, dict):
                todo += [(path + (k,), v) for k, v in node.items()]
            elif isinstance(node, list):
                todo += [(path + (i,), v) for i, v in enumerate(node)]
            elif isinstance(node, str) and len(value := norm(node)) >= 2:
                if value == wanted:
                    rank = (0, 0)
                elif wanted in value:
                    rank = (1, len(value))
                elif value in wanted:
                    rank = (2, -len(value))
                else:
                    continue
                key = (rank, self.line(path) or 0)
                if best is None or key < best[0]:
                    best = (key, path)
        return best[1] if best else None

    def palette(self, needs: tuple[str, ...] = (), path: PathKey = ("palette",)) -> dict[str, Colour]:
        """The spec's palette (name -> colour), with the names the drawing code needs checked
        present: a missing one is the spec's error at its palette line, not a failure mid-drawing."""
        node = self.data
        for part in path:
            node = node[part]
        pal = {k: self.colour(tuple(path) + (k,)) for k in node}
        missing = [n for n in needs if n not in pal]
        if missing:
            raise self.error(tuple(path), f"the drawings need these colours here: {', '.join(missing)}")
        return pal

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

# Bounds on what a file may ask of the loader. The real specs nest 6 deep and hold about 6,000
# nodes (the 1961 capitals deck); a long game record a few thousand.
MAX_DEPTH = 32
MAX_NODES = 200_000   # after aliases are counted as what they stand for ("billion laughs")

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml's C parser where present
_resolver = yaml.resolver.Resolver()


def _compose(text: str, file: str):
    """The document's node graph, composed from the parser's events without recursion, so that
    nesting depth and alias expansion are checked before anything is built from them. An alias is
    the node it names (shared, never copied); its expanded size counts towards MAX_NODES.
    (Written for speed as well: this loop is most of a referee's reading of the Capitals deck.)"""
    anchors: dict = {}
    size: dict[int, int] = {}      # id(node) -> nodes it stands for, its children included
    stack: list = []               # open collections: (node, anchor)
    root = None
    documents = 0
    resolve = _resolver.resolve
    plain_tags: dict = {}          # a plain scalar's text -> its tag (resolving is a regex search)
    Scalar, Alias = yaml.ScalarEvent, yaml.AliasEvent
    SeqStart, MapStart = yaml.SequenceStartEvent, yaml.MappingStartEvent
    SeqEnd, MapEnd = yaml.SequenceEndEvent, yaml.MappingEndEvent
    ScalarNode, SequenceNode, MappingNode = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode

    for event in yaml.parse(text, Loader=_Loader):
        kind = type(event)
        if kind is Scalar:
            tag = event.tag
            if tag is None or tag == "!":
                if event.implicit[0]:
                    tag = plain_tags.get(event.value)
                    if tag is None:
                        tag = plain_tags[event.value] = resolve(ScalarNode, event.value, event.implicit)
                else:
                    tag = resolve(ScalarNode, event.value, event.implicit)
            node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
            size[id(node)] = 1
            if event.anchor:
                anchors[event.anchor] = node
        elif kind is MapStart or kind is SeqStart:
            mark = event.start_mark
            if len(stack) >= MAX_DEPTH:
                raise SpecError(file, mark.line + 1, "", f"nested more than {MAX_DEPTH} levels deep")
            node_kind = SequenceNode if kind is SeqStart else MappingNode
            tag = event.tag
            if tag is None or tag == "!":
                tag = resolve(node_kind, None, event.implicit)
            node = node_kind(tag, [], mark, None, flow_style=event.flow_style)
            node.item_lines = []
            stack.append((node, event.anchor))
            continue
        elif kind is MapEnd or kind is SeqEnd:
            node, anchor = stack.pop()
            node.end_mark = event.end_mark
            if kind is MapEnd:
                node.value = list(zip(node.value[0::2], node.value[1::2]))
                node.pairs_as_written = list(node.value)
                children = [c for pair in node.value for c in pair]
            else:
                children = node.value
            total = 1 + sum(size[id(c)] for c in children)
            if total > MAX_NODES:
                raise SpecError(file, event.start_mark.line + 1, "", f"expands to more than {MAX_NODES} values "
                                                                     "(aliases count as what they stand for)")
            size[id(node)] = total
            # Registered when complete: an alias inside its own anchor (a cycle) names nothing.
            if anchor:
                anchors[anchor] = node
            event = node          # placed below at the line where it starts
        elif kind is Alias:
            if event.anchor not in anchors:
                raise SpecError(file, event.start_mark.line + 1, "", f"alias *{event.anchor} names no anchor above it")
            node = anchors[event.anchor]
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise SpecError(file, event.start_mark.line + 1, "", "more than one YAML document (a second '---')")
            continue
        else:
            continue
        # The node is complete: it is its parent's next item (or the document).
        if stack:
            parent = stack[-1][0]
            parent.value.append(node)
            # Where each item was written: for an alias, the alias's line, not its anchor's.
            mark = event.start_mark
            parent.item_lines.append(mark.line + 1 if mark else None)
        else:
            root = node
    return root


_PLAIN = (str, int, float, bool, type(None), list, dict)
_MERGE = "tag:yaml.org,2002:merge"


def _check_value(value, path: PathKey, line: int, file: str, text: str, shown: bool) -> None:
    """The checks a schema cannot make, on one value as constructed (merge keys already applied):
    numbers are finite; no dates, sets or binary; text holds no control or bidi-override character
    (errors.hidden_character: a spec's text may reach a terminal, a print list, a PDF's metadata
    or a file name), where `shown`."""
    if shown and isinstance(value, str):
        problem = hidden_problem(value)
        if problem:
            raise SpecError(file, line, format_field(path), problem)
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        raise SpecError(file, line, format_field(path), f"expected a finite number, got {text}")
    if not isinstance(value, _PLAIN):
        # Dates, sets, binary: YAML has them, our files do not (and JSON output cannot carry them).
        what = {"date": "a date", "datetime": "a date", "set": "a set", "bytes": "binary data"}.get(
            type(value).__name__, "a value of an unusual type")
        raise SpecError(file, line, format_field(path),
                        f"expected text, a number, true/false, a list or a mapping, got {what} "
                        "(put it in quotes if it is text)")


def _yaml_text(value) -> str:
    """A value merged in, as YAML writes it (it has no node, so no text of its own)."""
    if isinstance(value, float) and not value == value:
        return ".nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    return show(value)


def _walk(root, data, lines: dict, file: str, shown: bool) -> None:
    """The line of every key and item, and the checks a schema cannot make: keys are text, numbers
    are finite. The checks are made on the data as constructed, after merge keys (<<) have put
    their mappings' values in: a value merged in is checked where it lands, at the line of the
    `<<` that brought it (a `.nan` behind a merge key is refused like any other).

    Each node is visited once: a node reached again through an alias keeps the line of the key
    that uses it (walking into it again is how aliases would be expanded). A value merged in has
    no node of its own here: it is walked as data, each container once as well."""
    seen: set = set()
    todo = [(root, data, (), None)]
    while todo:
        node, value, path, line = todo.pop()
        here = lines.setdefault(path, line or node.start_mark.line + 1)
        if isinstance(value, (dict, list)):
            mark = id(node) if node is not None else ("data", id(value))
            if mark in seen:
                continue
            seen.add(mark)
        _check_value(value, path, here, file, node.value if isinstance(node, yaml.ScalarNode) else _yaml_text(value),
                     shown)
        if isinstance(value, dict):
            children: list = []
            written: set = set()
            merged_at = None
            keys: dict = {}
            if isinstance(node, yaml.MappingNode):
                # The pairs as written: constructing a merge key (<<) rewrites node.value.
                for key_node, value_node in node.pairs_as_written:
                    key_line = key_node.start_mark.line + 1
                    if key_node.tag == _MERGE:
                        merged_at = merged_at or key_line
                        continue
                    if not isinstance(key_node, yaml.ScalarNode):
                        raise SpecError(file, key_line, format_field(path), "a key must be plain text")
                    key = key_node.value
                    if key not in value:
                        continue  # not text (1: or true:): refused below
                    if key in keys:
                        raise SpecError(file, key_line, format_field(path + (key,)),
                                        f"duplicate key (first given on line {keys[key]})")
                    keys[key] = key_line
                    written.add(key)
                    # A key's line is the key's own line, where a reader looks for it.
                    children.append((value_node, value[key], path + (key,), key_line))
            for key in value:
                if not isinstance(key, str):
                    raise SpecError(file, here, format_field(path),
                                    f"a key must be text, got {show(key)} (put it in quotes)")
                problem = hidden_problem(key, lines=False) if shown else None
                if problem:
                    raise SpecError(file, keys.get(key, here),
                                    format_field(path), problem)
                if key not in written:
                    # Merged in (<<), or data with no node: checked all the same, at the merge's line.
                    children.append((None, value[key], path + (key,), merged_at or here))
            todo.extend(reversed(children))   # in file order: the first problem is reported first
        elif isinstance(value, list):
            if isinstance(node, yaml.SequenceNode):
                item_lines = getattr(node, "item_lines", ())
                todo.extend(reversed([(item_node, item, path + (i,), item_lines[i] if i < len(item_lines) else None)
                                      for i, (item_node, item) in enumerate(zip(node.value, value))]))
            else:
                todo.extend(reversed([(None, item, path + (i,), here) for i, item in enumerate(value)]))


def parse_yaml(text: str, file: str, shown: bool = False) -> tuple[object, dict]:
    """(data, line of every node) from YAML text, or SpecError: never more work or memory than the
    bounds above allow, whatever the text. `shown`: a spec's or settings file's, whose text is
    printed (every value and key passes errors.hidden_character); a record's names are judged by
    its referee (contract.name_problem, the same check, stricter)."""
    try:
        node = _compose(text, file)
        if node is None:
            return None, {}
        constructor = yaml.SafeLoader("")
        try:
            data = constructor.construct_document(node)
        finally:
            constructor.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise SpecError(file, line, "", f"not valid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise SpecError(file, None, "", f"not valid YAML: {str(exc).splitlines()[0] if str(exc) else exc}") \
            from None
    except (ValueError, OverflowError) as exc:
        # int("1" * 5000) and the like, raised while building a value
        raise SpecError(file, None, "", f"not valid YAML: {exc}") from None
    lines: dict = {}
    _walk(node, data, lines, file, shown)
    return data, lines


# ---------------------------------------------------------------- schemas

# Where schemas are: this folder's (common.yaml: what every kind shares), each game's own
# (`schemas/` in its folder: a game is one folder), and those added for games found elsewhere.
GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
_EXTRA_SCHEMA_FOLDERS: list[Path] = []


def add_schema_folder(folder: Path) -> None:
    """Schemas of a game found outside the games folder (the game registry adds them)."""
    folder = Path(folder)
    if folder not in _EXTRA_SCHEMA_FOLDERS and folder.resolve().parent.parent != GAMES_DIR:
        _EXTRA_SCHEMA_FOLDERS.append(folder)
        for cached in (_schema_files, _kinds, _schema, _inlined_schema):
            cached.cache_clear()


@lru_cache(maxsize=None)
def _schema_files() -> dict[str, Path]:
    """Each schema file by its name (KIND.yaml); the first found of a name is the one."""
    found: dict[str, Path] = {}
    for folder in [SCHEMA_DIR, *sorted(GAMES_DIR.glob("*/schemas")), *_EXTRA_SCHEMA_FOLDERS]:
        for path in sorted(folder.glob("*.yaml")):
            found.setdefault(path.name, path)
    return found


@lru_cache(maxsize=None)
def _schema(name: str) -> dict:
    """One schema file (our own: read with the C loader), when it is first needed: a referee
    validating a record reads its record schema and common.yaml, not all twenty."""
    return yaml.load(_schema_files()[name].read_text(encoding="utf-8"), Loader=_Loader)


@lru_cache(maxsize=None)
def _kinds() -> list[str]:
    return sorted(Path(name).stem for name in _schema_files() if name != "common.yaml")


def spec_kinds() -> tuple[str, ...]:
    """Every kind of spec there is (one schema each)."""
    return tuple(_kinds())


def _inline_refs(node, doc: str, depth: int = 0):
    """A schema with each `$ref` replaced by the definition it names: `#/$defs/NAME` in the same
    file (`doc`), or `FILE.yaml#/$defs/NAME` in another of ours (common.yaml mostly). Why: jsonschema resolves a `$ref` through its
    registry at every use, which was half the time of validating a large spec (the 1961 deck's
    117 entries, some ten each); inlined once, a schema is plain nested mappings. Keywords beside a
    `$ref` apply as well as it (JSON Schema 2020-12), so they join it in an allOf. Any other kind
    of reference is refused here, when the schema is first used."""
    if depth > 50:
        raise ValueError("schema definitions refer to each other in a loop")
    if isinstance(node, list):
        return [_inline_refs(v, doc, depth) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if ref is None:
        return {k: _inline_refs(v, doc, depth) for k, v in node.items() if k != "$defs"}
    where, _, name = ref.partition("#/$defs/") if isinstance(ref, str) else ("", "", "")
    if not name or "/" in name or not (where == "" or (re.fullmatch(r"[a-z0-9-]+\.yaml", where)
                                                     and where in _schema_files())):
        raise ValueError(f"a $ref other than to a definition of one of our schema files: {ref!r}")
    target_doc = where or doc
    target = _inline_refs(_schema(target_doc)["$defs"][name], target_doc, depth + 1)
    if len(node) == 1:
        return target
    rest = {k: _inline_refs(v, doc, depth) for k, v in node.items() if k != "$ref"}
    rest["allOf"] = [*rest.get("allOf", []), target]
    return rest


@lru_cache(maxsize=None)
def _inlined_schema(kind: str) -> dict:
    return _inline_refs(_schema(f"{kind}.yaml"), f"{kind}.yaml")


# jsonschema is imported when a spec is first validated, not with this module: `pnp --help` and
# the commands that read no spec start without it (70 ms of a process's start).
@lru_cache(maxsize=None)
def _validating() -> tuple:
    """(the validator class, the format checker) specs are validated with."""
    import jsonschema
    # Types are exact: where the rules count, 2.0 is not a count (JSON Schema would take it), and
    # a yes-or-no is true or false, never "no" or 0.
    validator = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)))
    format_checker = jsonschema.FormatChecker()
    format_checker.checks("colour", raises=ValueError)(_is_colour)
    return validator, format_checker


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def _is_colour(value) -> bool:
    # Palette names are resolved later, against the spec's own palette.
    if isinstance(value, str) and _IDENT.match(value.strip()):
        return True
    parse_colour(value)
    return True


_TYPE_WORDS = {"integer": "an integer", "number": "a number", "string": "a string",
               "object": "a mapping", "array": "a list", "boolean": "true or false"}


def _messages(err, spec: Spec):
    """Translate one jsonschema error into (path, message) pairs a user can act on."""
    path = tuple(err.absolute_path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    expected = schema.get("x-expected")
    v = err.validator
    if v in ("oneOf", "anyOf") and err.context:
        from jsonschema.exceptions import best_match
        best = best_match(err.context)
        if expected:
            yield path, f"expected {expected}, got {show(err.instance)}"
        else:
            yield from _messages(best, spec)
        return
    if v == "oneOf":
        # Valid under more than one of the forms (jsonschema's message is the whole value and
        # every form, as Python reprs). Forms told apart by their keys: the key that should go.
        forms = [f.get("required") for f in err.validator_value if isinstance(f, dict)]
        if isinstance(err.instance, dict) and forms and all(forms):
            given = [keys for keys in forms if all(k in err.instance for k in keys)]
            said = [" and ".join(keys) for keys in forms]
            said = f"{said[0]}, or {said[1]}, not both" if len(said) == 2 else f"only one of: {'; '.join(said)}"
            yield path + (given[-1][0],), f"give {said}"
        else:
            yield path, f"expected {expected or 'only one of the forms allowed here'}, got {show(err.instance)}"
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
        yield path, f"expected one of {', '.join(map(str, err.validator_value))}, got {show(err.instance)}"
        return
    if v == "format" and err.validator_value == "colour":
        cause = err.cause
        yield path, str(cause) if cause else f"expected a colour, got {show(err.instance)}"
        return
    if expected:
        yield path, f"expected {expected}, got {show(err.instance)}"
        return
    if v == "type":
        want = err.validator_value
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in (want if isinstance(want, list) else [want]))
        yield path, f"expected {words}, got {show(err.instance)}"
        return
    if v in _BOUND_WORDS:
        # The bound, and what was found, rather than jsonschema's repr of the whole value.
        word, unit = _BOUND_WORDS[v]
        n = err.validator_value
        got = f"{len(err.instance):,}" if unit else show(err.instance)
        bound = f"{n:,}" if isinstance(n, int) else f"{n:g}"
        if unit and n == 1:
            unit = unit[:-1]                  # "at most 1 item"
        # A key checked by propertyNames: the error is the mapping's, the value checked its key.
        key = f"key {show(err.instance)}: " if "propertyNames" in err.relative_schema_path else ""
        yield path, f"{key}expected {word} {bound}{unit}, got {got}"
        return
    if v == "pattern":
        key = "key " if "propertyNames" in err.relative_schema_path else ""
        yield path, f"{key}{show(err.instance)} is not of the form {show(err.validator_value)}"
        return
    if v == "const":
        yield path, f"expected {show(err.validator_value)}, got {show(err.instance)}"
        return
    # Any other: jsonschema's words, with the value it quotes (a repr of the whole mapping, for
    # some) shown as a value from the input is, cut.
    yield path, err.message.replace(repr(err.instance), show(err.instance))


_BOUND_WORDS = {"maxItems": ("at most", " items"), "minItems": ("at least", " items"),
                "maxLength": ("at most", " characters"), "minLength": ("at least", " characters"),
                "maxProperties": ("at most", " keys"), "minProperties": ("at least", " keys"),
                "maximum": ("at most", ""), "minimum": ("at least", ""),
                "exclusiveMaximum": ("less than", ""), "exclusiveMinimum": ("more than", "")}


# A file wrong everywhere (a list of 20,000 bad cards) gets the first errors found, in file order,
# and a count, not 20,000 lines; validation stops counting at MAX_ERRORS_FOUND, which bounds its
# time. (Past that, "first found" follows the schema's order of keys, not always the file's.)
MAX_ERRORS_SHOWN = 25
MAX_ERRORS_FOUND = 1000


def validate(data, lines: dict, file: str, kind: str | None = None, path: Path | None = None) -> Spec:
    """Validate against the schema of `kind` (by default the spec's own `kind:` key). A kind whose
    schema names `x-check-beyond` (module:function) has its own checks run on what the schema
    passed as well, so that one run reports every error that does not depend on another."""
    spec = Spec(file, data, lines, path=path)
    if not isinstance(data, dict):
        raise SpecError(file, 1, "", "expected a mapping at the top of the file")
    kinds = _kinds()
    if kind is None:
        kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        guess = difflib.get_close_matches(str(kind), list(kinds), n=1) if isinstance(kind, str) else []
        hint = f" (did you mean '{guess[0]}'?)" if guess else ""
        raise spec.error(("kind",), f"unknown spec kind {show(kind)}{hint}; known: {', '.join(sorted(kinds))}")
    schema = _inlined_schema(kind)
    written: dict = {}
    if schema.get("x-units"):
        _lengths_in_mm(data, [schema], _dpi(data), (), written)
    validator_class, format_checker = _validating()
    validator = validator_class(schema, format_checker=format_checker)
    found = list(itertools.islice(validator.iter_errors(data), MAX_ERRORS_FOUND + 1))
    problems, order = [], {}
    for err in sorted(found[:MAX_ERRORS_FOUND], key=lambda e: [str(p) for p in e.absolute_path]):
        for path, message in _messages(err, spec):
            if path in written:                  # a length given with its unit, converted to mm
                mm = f"got {show(written[path])} ({err.instance:g} mm)"
                message = message.replace(f"got {show(err.instance)}", mm) if f"got {show(err.instance)}" in message \
                    else f"{message} ({mm})"
            elif isinstance(err.instance, str) and err.schema.get("x-unit") and schema.get("x-units"):
                message += f" ({LENGTH_HINT})"
            problems.append(spec.error(path, message))
            order[id(problems[-1])] = (path, message)
    beyond: list[SpecError] = []
    if problems and schema.get("x-check-beyond"):
        module, _, function = schema["x-check-beyond"].partition(":")
        import importlib
        check = getattr(importlib.import_module(module), function)
        beyond = check(file, data, lines, spec.path, [tuple(e.absolute_path) for e in found[:MAX_ERRORS_FOUND]]
                       + [tuple(order[id(e)][0]) for e in problems])
    if problems:
        # A misspelt key makes the right one missing: "unknown key (did you mean ...)" is the
        # cause, so it comes first, and the "missing required key" of that mapping right after it
        # (a missing key has only its mapping's line, above the misspelt one).
        unknown_at = {}
        for e in problems:
            path, message = order[id(e)]
            if message.startswith("unknown key"):
                unknown_at[path[:-1]] = max(unknown_at.get(path[:-1], 0), e.line or 0)

        def line_of(e):
            path, message = order[id(e)]
            if message == "missing required key" and path[:-1] in unknown_at:
                return unknown_at[path[:-1]] + 0.5
            return e.line or 0
        # File order; on one line, fields in their order (cards[2] before cards[10]).
        problems.sort(key=lambda e: (line_of(e), [int(t) if i % 2 else t for i, t in
                                                  enumerate(re.split(r"(\d+)", e.field, flags=re.ASCII))]))
        said = {str(e) for e in problems}
        if beyond:            # the spec's errors in line order, then each other file's (a CSV's) in its own
            rank = {file: 0}
            for e in beyond:
                rank.setdefault(e.file, len(rank))
            lines_of = {id(e): line_of(e) for e in problems}
            problems = sorted(problems + [e for e in beyond if str(e) not in said],
                              key=lambda e: (rank.get(e.file, 0), lines_of.get(id(e), e.line or 0)))
        if len(problems) > MAX_ERRORS_SHOWN:
            more = len(problems) - MAX_ERRORS_SHOWN
            counted = f"over {more:,}" if len(found) > MAX_ERRORS_FOUND else f"{more:,}"
            problems = problems[:MAX_ERRORS_SHOWN] + [SpecError(
                file, None, "", f"{counted} more errors not shown (the first {MAX_ERRORS_SHOWN} found are above)")]
        raise SpecErrors(problems)
    return spec


LENGTH_HINT = "a number of mm, or a length with its unit: 2.5in, 3cm, 30mm, 12pt, or 300px at the dpi"


def _dpi(data: dict) -> float:
    from ..units import DEFAULT_DPI
    dpi = data.get("dpi", DEFAULT_DPI)
    return float(dpi) if isinstance(dpi, (int, float)) and not isinstance(dpi, bool) and 10 <= dpi <= 10000 \
        else DEFAULT_DPI


def _branches(schemas: list) -> list[dict]:
    """The schemas a value answers to: each one given and the allOf/anyOf/oneOf forms in it."""
    out, todo = [], list(schemas)
    while todo and len(out) < 200:
        s = todo.pop()
        if isinstance(s, dict):
            out.append(s)
            for key in ("allOf", "anyOf", "oneOf"):
                todo.extend(s.get(key, []))
            todo.extend(s[key] for key in ("then", "else") if key in s)
    return out


def _lengths_in_mm(node, schemas: list, dpi: float, path: tuple, written: dict):
    """In a kind whose schema says `x-units: true`, every length (a value whose schema says
    `x-unit: mm`) written with its unit (`825px`, `2.5in`) replaced by its mm, in place; `written`
    gets each one's path and text, for errors. Only lengths: a text that reads `3in` stays."""
    from ..units import parse_length
    forms = _branches(schemas)
    if isinstance(node, dict):
        for key, value in node.items():
            subs = [f["properties"][key] if key in f.get("properties", {}) else f.get("additionalProperties")
                    for f in forms]
            subs = [s for s in subs if isinstance(s, dict)]
            if subs:
                got = _lengths_in_mm(value, subs, dpi, path + (key,), written)
                if got is not value:
                    node[key] = got
    elif isinstance(node, list):
        subs = [f["items"] for f in forms if isinstance(f.get("items"), dict)]
        if subs:
            for k, value in enumerate(node):
                got = _lengths_in_mm(value, subs, dpi, path + (k,), written)
                if got is not value:
                    node[k] = got
    elif isinstance(node, str) and any(f.get("x-unit") == "mm" for f in forms):
        mm = parse_length(node, dpi)
        if mm is not None:
            written[path] = node
            return mm
    return node


class SpecErrors(SpecError):
    """Several errors in one spec; str() gives one line per error, in file order."""

    def __init__(self, errors: list[SpecError]):
        first = errors[0]
        super().__init__(first.file, first.line, first.field, first.message)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(SpecError.__str__(e) for e in self.errors)


_LOADED: dict[tuple, tuple[Spec, int]] = {}   # (spec, its file's bytes), least recently used first
MAX_LOADED = 256
# And at most this many bytes of spec files in each cache: a file is held parsed at about 22 times
# its size (the Capitals deck, 49 KB, holds 1.1 MB), and a stranger's folder of large specs read by
# `pnp studio` or `--watch` would otherwise keep 256 of 2 MB each, some 11 GB.
MAX_LOADED_BYTES = 16 * 2**20
# The same bytes under the same name in another folder (a copy of the project's specs, a spec and
# the one that names it each read again there) read as before: the valid reading of those bytes,
# by (digest, name, kind), least recently used first. Validating never reads beyond the file while
# it passes, so a valid reading is the same in any folder.
_READ: dict[tuple, tuple[Spec, int]] = {}


def _remember(cache: dict, key: tuple, spec: Spec, size: int) -> None:
    # A long process (a test run, `pnp serve`, --watch) reads more files than it keeps: the least
    # recently used give way, so the ones read again and again stay known. (pop(..., None): never an
    # error, whatever another thread did.)
    while cache and (len(cache) >= MAX_LOADED or sum(n for _, n in list(cache.values())) + size > MAX_LOADED_BYTES):
        cache.pop(next(iter(cache), None), None)
    if size <= MAX_LOADED_BYTES:
        cache[key] = (spec, size)


def load_spec(path: str | Path, display: str | None = None, kind: str | None = None) -> Spec:
    """The spec at path, validated. A build reads some specs many times (the Capitals deck and
    board name each other): a file whose bytes were parsed before gives back the same Spec,
    which nothing changes (Specs are read-only by convention)."""
    path = Path(path)
    file = display or str(path)
    raw = read_bytes(path, file, MAX_SPEC_BYTES)
    # (by the file's real path: `d.yaml` in two folders is two specs, whose decks read two CSVs)
    digest = hashlib.sha256(raw).digest()
    key = (digest, file, kind, os.path.realpath(path))
    known = _LOADED.pop(key, None)
    if known is not None:
        _LOADED[key] = known          # the most recently used now
        return known[0]
    same, _ = _READ.pop((digest, file, kind), (None, 0))
    if same is not None:
        # A Spec of its own (its path, its notes), its data a copy: nothing read from one folder's
        # spec is shared with another's.
        spec = Spec(file, copy.deepcopy(same.data), same.lines, path=path)
    else:
        data, lines = parse_yaml(decode_text(raw, file), file, shown=True)
        spec = validate(data, lines, file, kind, path)
        spec.path = path
        # (the reading kept for other folders is a copy too: a change made to this folder's, in
        # place, by whatever reads it, never reaches another's)
        same = Spec(file, copy.deepcopy(spec.data), lines)
    _remember(_READ, (digest, file, kind), same, len(raw))
    _remember(_LOADED, key, spec, len(raw))
    return spec


def related_path(spec: Spec, key: PathKey, root: Path | None = None) -> tuple[Path, str]:
    """(path, display) of the file a path field of this spec names, relative to the spec's file
    and kept inside its spec tree (or `root`), or the spec's error at that field."""
    key = (key,) if isinstance(key, str) else tuple(key)
    rel = spec.data
    for part in key:
        rel = rel[part]
    here = Path(spec.path or spec.file).parent
    try:
        path = confined(root or spec_tree(spec.path or Path(spec.file)), rel, base=here)
    except ReferenceError_ as exc:
        raise spec.error(key, f"expected {exc}, got {show(rel)}") from None
    if not path.exists():
        if os.path.lexists(path):
            raise spec.error(key, f"a link that leads nowhere, or round to itself: {show(rel)}")
        raise spec.error(key, f"no such file: {show(rel)}")
    return path, os.path.normpath(Path(spec.file).parent / rel)


class WrongKind(ValueError):
    """A spec named where a spec of another kind is expected; the message says which is which."""


def load_named(path: Path, display: str, kinds: tuple[str, ...]) -> Spec:
    """The spec that a reference names (a spec's `deck:`, `board:` or `uses:`, a record's `board:`),
    loaded and checked to be of one of `kinds`, or WrongKind: every name is resolved through here,
    so no code is handed a spec of a kind it cannot read (a Sorry deck where its board belongs)."""
    named = load_spec(path, display=display)
    if named.kind not in kinds:
        want = " or ".join(f"a {k}" for k in kinds)
        raise WrongKind(f"expected {want} spec, got {show(display)}, a {named.kind} spec")
    return named


def load_related(spec: Spec, key: PathKey, kinds: tuple[str, ...]) -> Spec:
    """The spec a path field of this one names (relative to this spec's file), of one of `kinds`,
    or the error at that field. Its own errors name it as the user would: decks/x.yaml, not
    boards/../decks/x.yaml."""
    path, display = related_path(spec, key)
    try:
        return load_named(path, display, kinds)
    except WrongKind as exc:
        raise spec.error((key,) if isinstance(key, str) else tuple(key), str(exc)) from None


def find_specs(root: Path) -> list[Path]:
    """The spec files in a project's decks/ and boards/: every YAML file there but a game record
    (a record kept beside the specs is no spec with an error)."""
    from ..paths import what_file
    return sorted(p for d in ("decks", "boards") for p in (root / d).glob("*")
                  if p.suffix.lower() in (".yaml", ".yml") and p.is_file() and what_file(p) != "record")


def display_path(path: Path, root: Path | None) -> str:
    """A path as errors and build listings show it: relative to the project when it can be."""
    try:
        # realpath, not Path.resolve(): two links naming each other are a loop that resolve()
        # raises on (RuntimeError); realpath gives a path, and the read says what is wrong.
        return str(Path(os.path.realpath(path)).relative_to(os.path.realpath(root or Path.cwd())))
    except ValueError:
        return str(path)
