"""Count continuo: the same game module as Continuo, with the numbered pack."""
from . import CHECKS, build  # noqa: F401

SPECS = ["decks/count_continuo.yaml"]
