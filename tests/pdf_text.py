"""The size of every string a PDF shows, as printed: the measure behind "no text under 6 pt".

pypdf reads the file's structure (pages, resources, forms, filters); the content streams are read
by a small tokenizer of our own, because pypdf's object parser took about 10 s over a build's 44
PDFs and this one takes a fraction of that. It knows the whole content-stream syntax (numbers,
names, literal strings with nested parentheses and escapes, hex strings, arrays, dictionaries,
comments, inline images) but interprets only what places text: q/Q, cm, BT, Tf, TL, Tm, Td/TD,
T*, the four showing operators and Do into form XObjects.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from pypdf import PdfReader

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

_TOKEN = re.compile(rb"""
    (?P<space>[\x00\t\n\x0c\r ]+ | %[^\r\n]*)
  | (?P<number>[+-]?(?:\d+\.?\d*|\.\d+))(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])
  | (?P<name>/[^\x00\t\n\x0c\r ()<>\[\]{}/%]*)
  | (?P<string>\()
  | (?P<dict><<|>>)
  | (?P<hex><[0-9A-Fa-f\x00\t\n\x0c\r ]*>)
  | (?P<array>[\[\]])
  | (?P<word>[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)
""", re.VERBOSE)
# A run of whole operations that place no text (a path's numbers and m, l, c, re, f; colours;
# line widths): skipped in one match, as most of a page is. It stops short of anything else (a
# string, an array, a comment, an operator that matters) for the tokenizer to take.
_SP = rb"[\x00\t\n\x0c\r ]"
_REGULAR = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
_MATTERS = rb"(?:q|Q|cm|BT|Tf|TL|Tm|Td|TD|T\*|Tj|TJ|'|\"|Do|BI|ID|EI|true|false|null)(?!" + _REGULAR + rb")"
_SKIP = re.compile(
    rb"(?:" + _SP + rb"*(?:(?:[+-]?(?:\d+\.?\d*|\.\d+)(?!" + _REGULAR + rb")|/" + _REGULAR + rb"*+)" + _SP
    + rb"*)*(?!" + _MATTERS + rb")(?![+-.\d])" + _REGULAR + rb"++)++")
# One operation whose operands are all numbers and names (cm, Tm, Tf, q, Q, BT...), in one match.
_SIMPLE = re.compile(
    rb"((?:" + _SP + rb"*(?:[+-]?(?:\d+\.?\d*|\.\d+)(?!" + _REGULAR + rb")|/" + _REGULAR + rb"*+))*)" + _SP
    + rb"*(" + _MATTERS + rb")")
_OPERAND = re.compile(rb"/" + _REGULAR + rb"*|[^\x00\t\n\x0c\r /]+")
_STRING_STOP = re.compile(rb"[()\\]")
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f"}
_IMAGE_END = re.compile(rb"[\x00\t\n\x0c\r ]EI(?=[\x00\t\n\x0c\r ]|$)")


class PdfSyntaxError(ValueError):
    pass


def _literal(data: bytes, i: int) -> tuple[bytes, int]:
    """A literal string whose "(" ends at i: (its bytes, the index after its ")")."""
    out, depth = bytearray(), 1
    while True:
        m = _STRING_STOP.search(data, i)
        if m is None:
            raise PdfSyntaxError("a string that does not end")
        j = m.start()
        out += data[i:j]
        c = data[j]
        if c == 0x5C:                                   # backslash
            nxt = data[j + 1:j + 2]
            if not nxt:
                raise PdfSyntaxError("a string that ends in a backslash")
            octal = re.match(rb"[0-7]{1,3}", data[j + 1:j + 4])
            if octal:
                out.append(int(octal.group(), 8) & 0xFF)
                i = j + 1 + len(octal.group())
                continue
            if nxt in (b"\n", b"\r"):                   # a line continued: no character
                i = j + (3 if data[j + 1:j + 3] == b"\r\n" else 2)
                continue
            out += _ESCAPES.get(nxt[0], nxt)            # \( \) \\ and any other: the character
            i = j + 2
            continue
        depth += 1 if c == 0x28 else -1
        if depth == 0:
            return bytes(out), j + 1
        out.append(c)
        i = j + 1


PLACING = frozenset([b"q", b"Q", b"cm", b"BT", b"Tf", b"TL", b"Tm", b"Td", b"TD", b"T*", b"Tj", b"TJ", b"'", b'"',
                     b"Do"])


def operations(data: bytes):
    """(operands, operator) of the operations of a content stream that place text (PLACING), in
    order; the others are read past. Operands are floats, names (str with its slash), strings
    (bytes), lists, dicts (lists of their keys and values) and true/false/null (str)."""
    operands: list = []
    nests: list[list] = []
    i, n = 0, len(data)
    while i < n:
        if not nests:
            skipped = _SKIP.match(data, i)
            if skipped:
                i, operands = skipped.end(), []
                continue
            simple = _SIMPLE.match(data, i)
            if simple and simple.group(2) not in (b"ID", b"BI", b"EI", b"true", b"false", b"null"):
                i = simple.end()
                operands += [v.decode("latin-1") if v[:1] == b"/" else float(v)
                             for v in _OPERAND.findall(simple.group(1))]
                yield operands, simple.group(2)
                operands = []
                continue
        m = _TOKEN.match(data, i)
        if m is None:
            raise PdfSyntaxError(f"unexpected byte {data[i:i + 1]!r} at {i}")
        kind, token, i = m.lastgroup, m.group(), m.end()
        target = nests[-1] if nests else operands
        if kind == "space":
            continue
        if kind == "number":
            target.append(float(token))
        elif kind == "name":
            target.append(token.decode("latin-1"))
        elif kind == "string":
            value, i = _literal(data, i)
            target.append(value)
        elif kind == "hex":
            digits = re.sub(rb"[^0-9A-Fa-f]", b"", token)
            target.append(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode()))
        elif token in (b"[", b"<<"):
            nests.append([])
        elif token in (b"]", b">>"):
            if not nests:
                raise PdfSyntaxError(f"{token!r} without its opening at {i}")
            done = nests.pop()
            (nests[-1] if nests else operands).append(done)
        elif token in (b"true", b"false", b"null"):
            target.append(token.decode())
        else:
            if nests:
                raise PdfSyntaxError(f"operator {token!r} inside an array or dictionary at {i}")
            if token == b"ID":                         # an inline image: its bytes run to EI
                end = _IMAGE_END.search(data, i + 1)
                if end is None:
                    raise PdfSyntaxError("an inline image that does not end")
                i = end.end()
                operands = []
                continue
            if token in PLACING:
                yield operands, token
            operands = []


def _then(m, n):
    """PDF matrices: m applied first, then n."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _shown(operand) -> str:
    if isinstance(operand, list):
        return "".join(x.decode("latin-1") for x in operand if isinstance(x, bytes))
    return operand.decode("latin-1") if isinstance(operand, bytes) else str(operand)


def text_runs(data: bytes, resources, ctm, cache: dict, out: list) -> None:
    """Every string a content stream shows, as (size in pt on the page, text): the Tf size times
    the scale of the text matrix and the current transformation matrix, through every form
    XObject it draws (a card face is one form, placed on a page under a transform)."""
    xobjects = resources.get_object().get("/XObject", {}) if resources is not None else {}
    stack, tm, tlm, size, leading = [], IDENTITY, IDENTITY, 0.0, 0.0
    for operands, op in operations(data):
        # q/Q save and restore the whole graphics state: the text state (size, leading) with it.
        if op == b"q":
            stack.append((ctm, size, leading))
        elif op == b"Q":
            ctm, size, leading = stack.pop()
        elif op == b"cm":
            ctm = _then(tuple(operands), ctm)
        elif op == b"BT":
            tm = tlm = IDENTITY
        elif op == b"Tf":
            size = operands[1]
        elif op == b"TL":
            leading = operands[0]
        elif op == b"Tm":
            tm = tlm = tuple(operands)
        elif op in (b"Td", b"TD"):
            tm = tlm = _then((1, 0, 0, 1, operands[0], operands[1]), tlm)
        elif op in (b"T*", b"'", b'"'):
            tm = tlm = _then((1, 0, 0, 1, 0, -leading), tlm)
        if op in (b"Tj", b"TJ", b"'", b'"'):
            m = _then(tm, ctm)
            # The em's height on the page: the text space's y axis through both matrices.
            out.append((size * math.hypot(m[2], m[3]), _shown(operands[-1])))
        elif op == b"Do":
            ref = xobjects[operands[0]]
            form = ref.get_object()
            if form.get("/Subtype") != "/Form":
                continue
            full = _then(tuple(float(v) for v in form.get("/Matrix", IDENTITY)), ctm)
            # A form's text sizes depend only on the linear part of its placement.
            key = (getattr(ref, "idnum", id(form)), tuple(round(v, 6) for v in full[:4]))
            if key not in cache:
                runs: list = []
                # A form without resources of its own uses its page's (PDF 1.7, 8.10.1).
                text_runs(form.get_data(), form.get("/Resources", resources), (*full[:4], 0.0, 0.0), cache,
                          runs)
                cache[key] = runs
            out.extend(cache[key])


def page_text_sizes(path: Path) -> list[tuple[int, float, str]]:
    """(page number from 1, size in pt as printed, text) of every string shown in the PDF."""
    reader = PdfReader(path)
    cache: dict = {}
    found = []
    for n, page in enumerate(reader.pages, 1):
        runs: list = []
        contents = page.get_contents()
        text_runs(contents.get_data() if contents is not None else b"", page.get("/Resources"),
                  IDENTITY, cache, runs)
        found += [(n, size, text) for size, text in runs]
    return found
