"""The parts of the package pyproject.toml cannot list: the games' own specs. decks/ and boards/ stay
at the repository's top (where people edit them) and ship inside the package as generator/builtin/,
where an installed `pnp` finds them (generator/paths.py)."""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["generator*"]) + ["generator.builtin.decks", "generator.builtin.boards",
                                                      "generator.builtin.boards.data"],
    package_dir={"generator.builtin.decks": "decks", "generator.builtin.boards": "boards",
                 "generator.builtin.boards.data": "boards/data"},
)
