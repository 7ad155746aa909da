"""Count continuo: the Continuo module with the numbered pack (chains score their numbers)."""
from . import CHECKS, FORM, build  # noqa: F401  (the same checks, build and form as Continuo)
from . import _referee
from . import play_options as _play_options
from . import referee_commands as _commands

TITLE = "Count continuo"
SPECS = ["decks/count_continuo.yaml", "decks/count_continuo_rules.yaml"]


def play_options(parser) -> None:
    _play_options(parser, variants=False)


def referee_commands(sub) -> dict:
    return _commands(sub, _referee("count-continuo"))


def __getattr__(name):
    if name == "REFEREE":
        return _referee("count-continuo")
    raise AttributeError(name)
