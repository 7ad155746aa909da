"""Every sentence of an earlier README is still said: in README.md or a page of docs/.

The README was split into docs/ (issue 35); a README edited on another branch is carried over by
hand into the right page. This lists each sentence of the old README (a git revision's, or a file)
that no longer appears, whitespace and line breaks aside, so nothing is lost on the way:

    .venv/bin/python scripts/check_docs_split.py [REVISION|FILE]   # default: the README before the split

Exit 1 when a sentence is missing.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEFORE_SPLIT = "04b769f"


def flat(text):
    """The text with headings' marks and links' addresses dropped, and every run of whitespace one space."""
    text = re.sub(r"\[([^\]]*)\]\([^)\s]*\)", r"\1", text)  # a link: its text
    return re.sub(r"\s+", " ", re.sub(r"(?m)^#+ ", "", text))


def sentences(text):
    """The text's sentences, headings and lines of code: a paragraph's split after a sentence's end."""
    units = []
    for line in text.split("\n"):
        if line.startswith("#") or line.startswith("    "):
            units.append("\n\n" + line + "\n\n")
        else:
            units.append(line)
    found = []
    for paragraph in re.split(r"\n\s*\n", "\n".join(units)):
        for part in re.split(r"(?<=[.:;!?)])\s+(?=[A-Z`(*\[-])", flat(paragraph)):
            if len(part.strip()) > 3:
                found.append(part.strip())
    return found


def read_old(source):
    path = pathlib.Path(source)
    if path.is_file():
        return path.read_text(encoding="utf-8")
    return subprocess.run(["git", "show", f"{source}:README.md"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


def main(argv):
    old = read_old(argv[0] if argv else BEFORE_SPLIT)
    now = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    said = flat("\n".join(p.read_text(encoding="utf-8") for p in now))
    missing = [s for s in sentences(old) if s not in said]
    for s in missing:
        print(s)
    print(f"{len(missing)} of {len(sentences(old))} sentences not found in README.md and docs/",
          file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
