"""Coin toss, the smallest game this project can hold: proof that a game is one folder. Nothing
outside this folder names it; with this folder's parent in PNP_GAMES_PATH, `pnp` lists it, builds
it, referees it and `pnp serve` offers it. Players call heads or tails in turn; a right call scores a
point; the first to the spec's target wins."""
from __future__ import annotations

from generator.games.declaration import GameDeclaration, check_by, imported

TITLE = "Coin toss"


def contents(specs, paper, part=None) -> list:
    from generator.products.contents import Document
    from .rules import draw_coin, load_coin
    out = []
    for spec in specs.values():
        coin = load_coin(spec)
        out.append(Document(spec, f"coin-{paper.name}.pdf", coin["title"], lambda coin=coin: [draw_coin(coin, paper)],
                            info=dict(what=f"{coin['title']}: the coin to cut out", stock="card", sides=1,
                                      paper=paper.name, order=10)))
    return out


def play_options(parser) -> None:
    parser.add_argument("--players", help="names, comma-separated")


GAMES = (GameDeclaration(id="coin", title=TITLE, specs=("coin.yaml",), contents=contents,
                         checks={"coin-coin": check_by(__name__, ".rules:load_coin")},
                         referee=imported(__name__, ".rules:REFEREE"), play_options=play_options,
                         form={"players": {"label": "Who calls, in turn", "placeholder": "Ann, Bob"}}),)
