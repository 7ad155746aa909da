"""Count continuo: the Continuo module with the numbered pack (chains score their numbers)."""
from . import CHECKS, build, referee_commands as _commands  # noqa: F401
from . import play_options as _play_options
from .referee import make_rules

SPECS = ["decks/count_continuo.yaml"]
REFEREE = make_rules("count-continuo")


def play_options(parser) -> None:
    _play_options(parser, default_variant="count-continuo")


def referee_commands(sub) -> dict:
    return _commands(sub, REFEREE)
