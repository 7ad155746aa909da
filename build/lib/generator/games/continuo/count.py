"""Count continuo's referee, as `from generator.games.continuo.count import REFEREE` (its declaration
is in this package's __init__, beside Continuo's)."""
from . import _referee


def __getattr__(name):
    if name == "REFEREE":
        return _referee("count-continuo")
    raise AttributeError(name)
