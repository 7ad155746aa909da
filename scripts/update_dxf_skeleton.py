"""Write generator/laser/dxf_skeleton.json: the document ezdxf makes around a laser sheet's
entities (see generator/laser/export.py), made again with the installed ezdxf.

Run it when tests/test_dxf.py says the stored skeleton is not what ezdxf makes (a new ezdxf):
    .venv/bin/python scripts/update_dxf_skeleton.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.laser.export import SKELETON_FILE, SKELETON_SIZE, ezdxf_skeleton  # noqa: E402


def main() -> None:
    text = json.dumps(ezdxf_skeleton(*SKELETON_SIZE), indent=1, sort_keys=True) + "\n"
    SKELETON_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {SKELETON_FILE.relative_to(ROOT)} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
