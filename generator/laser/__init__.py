"""The laser layer: parts (cut outline, score lines, engraved areas, a label), kerf compensation
in one place, finger joints, nesting onto sheets, and SVG / DXF / PNG writers.

Conventions (what LightBurn, RDWorks and most laser software expect, and docs/laser-and-cutting.md states):
cut = red #FF0000 hairline, score = blue #0000FF hairline, engrave = black #000000 fill;
in DXF the layers CUT (ACI 1, red), SCORE (ACI 5, blue), ENGRAVE (ACI 7); all units mm.
"""
