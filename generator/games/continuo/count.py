"""Count continuo: the Continuo module with the numbered pack (chains score their numbers)."""
from . import CHECKS, build  # noqa: F401  (the same checks and build as Continuo)
from . import referee_commands as _commands
from . import play_options as _play_options
from .referee import make_rules

SPECS = ["decks/count_continuo.yaml"]
REFEREE = make_rules("count-continuo")


def play_options(parser) -> None:
    _play_options(parser, variants=False)


def referee_commands(sub) -> dict:
    return _commands(sub, REFEREE)
