"""Capitals rules, one test per rule of US 3,064,989, on positions set up by hand.

The board is 10 x 12 squares (rows A..J, columns 1..12; lattice points A..K, 1..13). Besides a few
marker cards placed where a test wants them, every wall is played as a card named for itself:
card "C3E2" lays the wall C3E2 and its square is the one the wall's first unit borders, so a test
reads as the walls it lays. The patent's words each test checks are quoted in its docstring.
"""
from dataclasses import dataclass

import pytest

from generator.games.capitals.geo import parse_square
from generator.games.capitals.referee import apply
from generator.games.capitals.rules import (Board, Card, Position, end_game, parse_wall, pass_turn, play_turn,
                                            totals, winner)
from generator.referee.contract import Refused

ROWS, COLS = 10, 12
SPECIALS = [Card("Luxembourg", "Luxembourg", (9, 0), 10, 1, {"units": 3}),
            Card("Andorra", "Andorra la Vella", (9, 1), 14, 1, {"units": 1}),
            Card("Vatican City", "Vatican City", (9, 2), 11, 1, {"right_angle": 16}),
            Card("United Nations", "New York", (9, 3), 7, 1, {"straight_line": True})]


@dataclass(frozen=True)
class WallCards(Board):
    """A board on which any wall is also an ordinary card of its own length, named for it."""

    def card(self, text: str) -> Card:
        try:
            return super().card(text)
        except Refused:
            w = parse_wall(text)
            kind, r, c = w.edges()[0]
            square = (min(r, ROWS - 1), c) if kind == "h" else (r, min(c, COLS - 1))
            return Card(w.name(), w.name(), square, w.n, 1, None)


def start(markers=None, players=("Ann", "Bob"), variant="most-capitals", first_round=False):
    """markers: {name: square} or {name: (square, population bracket)}; each is a card of 4 letters."""
    cards, sites = {c.name.lower(): c for c in SPECIALS}, {}
    for name, where in (markers or {}).items():
        square, bracket = (where, 1) if isinstance(where, str) else where
        sq = parse_square(square)
        cards[name.lower()] = Card(name, name, sq, 4, bracket, None)
        sites[sq] = sites.get(sq, ()) + (name,)
    return Position(WallCards(ROWS, COLS, cards, sites), tuple(players), variant,
                    turn=0 if first_round else len(players))


def lay(pos, *walls):
    """The player to move plays one card per wall (a card named for its wall, or 'Card Wall')."""
    plays = []
    for w in walls:
        card, _, wall = w.rpartition(" ")
        plays.append((card or wall, [wall]))
    return play_turn(pos, pos.players[pos.to_move], plays)


def turns(pos, *moves):
    """Moves in turn order: a wall, a tuple of walls for one turn, or None for a pass."""
    for m in moves:
        if m is None:
            pos = pass_turn(pos, pos.players[pos.to_move])
        else:
            pos = lay(pos, *(m if isinstance(m, tuple) else (m,))).position
    return pos


def special(pos, card, *walls):
    return play_turn(pos, pos.players[pos.to_move], [(card, list(walls))])


def ring(point, rows, cols):
    """The four walls round the rectangle whose top-left corner is `point`: top, left, bottom, right."""
    r0, c0 = parse_square(point)
    letter = "ABCDEFGHIJK"
    return (f"{point}E{cols}", f"{point}S{rows}", f"{letter[r0 + rows]}{c0 + 1}E{cols}",
            f"{letter[r0]}{c0 + 1 + cols}S{rows}")


def credited(pos):
    """{player: squares credited, by name}"""
    out = {}
    for (r, c), p in pos.owner:
        out.setdefault(p, []).append(f"{'ABCDEFGHIJ'[r]}-{c + 1}")
    return {p: sorted(names) for p, names in out.items()}


def refused(rule, fn, *args):
    with pytest.raises(Refused) as err:
        fn(*args)
    assert err.value.rule == rule, err.value
    return err.value


def squares(first, last):
    (r0, c0), (r1, c1) = parse_square(first), parse_square(last)
    return sorted(f"{'ABCDEFGHIJ'[r]}-{c + 1}" for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))


# ------------------------------------------------------------------ what an enclosure is

def test_a_rectangle_walled_all_round_is_credited_with_the_flag_sites_in_it():
    """"each player who has walled off a square or oblong area, is credited with all the flag-sites
    within it"; "unplayed cards corresponding to a flag site within the area are to be discarded"."""
    top, left, bottom, right = ring("C3", 2, 2)
    pos = turns(start({"Paris": "C4", "Rome": "D3", "Oslo": "F3"}), top, left, bottom)
    res = lay(pos, right)                                       # Bob's wall closes it
    [area] = res.closed
    assert (area.player, area.name(), area.sites) == ("Bob", "C-3..D-4", ["Paris", "Rome"])
    assert credited(res.position) == {"Bob": squares("C-3", "D-4")}
    assert totals(res.position) == {"Ann": 0, "Bob": 2}
    assert res.discarded == ["Paris", "Rome"]
    refused("enclosed-card", lay, res.position, "Paris C4E4")   # its card is discarded, not played


def test_a_walled_region_that_is_not_square_or_oblong_is_not_an_enclosure():
    """"walled off a square or oblong area": an L walled all round credits nothing, and walls may
    still be laid in it; a wall that cuts it into oblongs closes them both."""
    ell = ["C3E2", "C5S2", "E4E1", "E4S1", "F3E1", "C3S3"]      # C-3, C-4, D-3, D-4 and E-3
    pos = turns(start({"Rome": "E3"}), *ell)
    assert pos.owner == () and pos.enclosures == ()
    res = lay(pos, "E3E1")                                      # between D-3 and E-3, inside the L
    assert [a.name() for a in res.closed] == ["C-3..D-4", "E-3"]
    assert credited(res.position) == {"Ann": squares("C-3", "D-4") + ["E-3"]}
    assert totals(res.position) == {"Ann": 1, "Bob": 0}


def test_a_card_whose_site_is_in_a_region_of_another_shape_is_still_played():
    """Only an enclosure's cards are discarded: a site in a walled L is not enclosed."""
    pos = turns(start({"Rome": "C4"}), "C3E2", "C5S2", "E4E1", "E4S1", "F3E1", "C3S3")
    res = lay(pos, "Rome D1E4")                                 # along the bottom of C-4, through the L
    assert [a.name() for a in res.closed] == ["C-3..C-4"]
    assert totals(res.position) == {"Ann": 1, "Bob": 0}


def test_walls_inside_a_rectangle_do_not_stop_it_being_one():
    """A wall left dangling inside (laid before the rectangle closed) changes nothing."""
    top, left, bottom, right = ring("C3", 3, 3)
    pos = turns(start({"Rome": "D4"}), "D4E1", top, left, bottom)
    [area] = lay(pos, right).closed
    assert area.name() == "C-3..E-5" and len(area.squares) == 9 and area.sites == ["Rome"]


def test_the_edge_of_the_map_is_not_a_wall():
    """"walled off": three walls against the map's top edge enclose nothing; a fourth, along the
    edge itself, does."""
    pos = turns(start({"Rome": "A3"}), "A3S2", "C3E2", "A5S2")
    assert pos.owner == ()
    res = lay(pos, "A3E2")
    assert [a.name() for a in res.closed] == ["A-3..B-4"] and totals(res.position) == {"Ann": 0, "Bob": 1}


# ------------------------------------------------------------------ enclosures within enclosures

def test_a_larger_enclosure_takes_the_one_walled_up_inside_it():
    """"unless the enclosed area has been walled up within a larger one. In the latter event, all
    the flag-sites within the larger area are credited to the player whose move completed it"."""
    pos = turns(start({"Rome": "D4", "Oslo": "B2"}), *ring("C3", 2, 2))       # Bob closes the box
    assert totals(pos) == {"Ann": 0, "Bob": 1}
    top, left, bottom, right = ring("B2", 4, 4)
    pos = turns(pos, top, left, bottom, None)
    res = lay(pos, right)                                                   # Ann closes it
    [area] = res.closed
    assert area.name() == "B-2..E-5" and area.sites == ["Oslo", "Rome"]
    assert area.held_before == {"Bob": ["Rome"]}
    assert [n.enclosure.name() for n in area.inside] == ["C-3..D-4"]
    assert totals(res.position) == {"Ann": 2, "Bob": 0}
    assert credited(res.position) == {"Ann": squares("B-2", "E-5")}


def test_a_nested_enclosure_sharing_a_side_with_the_larger_one_is_taken_over():
    """Bob's box is the left end of Ann's oblong: it is walled up within the larger area too."""
    pos = turns(start({"Rome": "D3", "Oslo": "C7"}), *ring("C3", 2, 2))
    assert credited(pos) == {"Bob": squares("C-3", "D-4")}
    pos = turns(pos, "C5E4", None, "E5E4", None)
    res = lay(pos, "C9S2")
    [area] = res.closed                                             # C-3..D-8, with C-5..D-8 in it
    assert area.name() == "C-3..D-8" and len(area.squares) == 12
    assert [(n.enclosure.name(), n.enclosure.player) for n in area.inside] == [("C-3..D-4", "Bob"),
                                                                                ("C-5..D-8", "Ann")]
    assert totals(res.position) == {"Ann": 2, "Bob": 0}


def test_neighbours_that_together_make_an_oblong_go_to_the_later():
    """Two enclosures side by side whose union is an oblong: the second move completed the larger
    area, so it has both. Offset by a row, the union is no oblong and each keeps its own."""
    box = ring("C3", 2, 2)
    pos = turns(start({"Rome": "D3"}), box[0], box[1], box[2], None, box[3], "C5E2", "E5E2")
    assert credited(pos) == {"Ann": squares("C-3", "D-4")} and pos.players[pos.to_move] == "Bob"
    res = lay(pos, "C7S2")
    assert credited(res.position) == {"Bob": squares("C-3", "D-6")}
    assert totals(res.position) == {"Ann": 0, "Bob": 1}
    # Bob's box a row lower, on the lower half of Ann's east side: D-5..E-6.
    pos = turns(start({"Rome": "D3"}), box[0], box[1], box[2], None, box[3], "D5E2", "E5S1", "F5E2", None)
    res = lay(pos, "D7S2")
    assert [a.name() for a in res.closed] == ["D-5..E-6"]
    assert credited(res.position) == {"Ann": squares("C-3", "D-4"), "Bob": squares("D-5", "E-6")}


def test_rectangles_that_overlap_in_part_each_square_goes_to_the_last_one_around_it():
    """Walls laid before an enclosure closed can make a later rectangle overlap it in part: the
    part inside both is an enclosed area within the later, larger one, so it changes hands; the
    rest stays."""
    pos = turns(start({"Rome": "C3", "Oslo": "C5"}), "C3E4", "C5S4", "E3E4", "C3S2")
    res = lay(pos, "C7S2")                                       # Ann closes C-3..D-6 and its halves
    assert [a.name() for a in res.closed] == ["C-3..D-6"]
    assert [n.enclosure.name() for n in res.closed[0].inside] == ["C-3..D-4", "C-5..D-6"]
    pos = turns(res.position, "E7S2", None)
    res = lay(pos, "G5E2")                                       # Bob closes C-5..F-6
    [area] = res.closed
    assert area.name() == "C-5..F-6" and area.held_before == {"Ann": ["Oslo"]}
    assert [n.enclosure.name() for n in area.inside] == ["C-5..D-6", "E-5..F-6"]
    assert credited(res.position) == {"Ann": squares("C-3", "D-4"), "Bob": squares("C-5", "F-6")}
    assert totals(res.position) == {"Ann": 1, "Bob": 1}


def test_a_turn_that_closes_an_enclosure_and_one_inside_it_reports_them_nested():
    """One wall closes a large inner oblong and the one around it: the report lists the outer
    one, the inner one inside it, every measure counting everything inside."""
    pos = turns(start({"Rome": "D4", "Oslo": "C8"}), "D3E5", None, "D8S2", None, "C3E6", None, "F3E6", None, "C9S3",
                None)
    nxt, report = apply(pos, {"player": "Ann", "play": [{"card": "C3S3", "wall": "C3S3"}]})
    [area] = report.data["enclosed"]
    assert area["rectangle"] == "C-3..E-8" and area["squares"] == 18 and area["points"] == 2
    assert area["markers"] == ["Oslo", "Rome"]
    [inner] = area["inside"]
    assert (inner["rectangle"], inner["squares"], inner["markers"], inner["turn"]) == \
           ("D-3..E-7", 10, ["Rome"], pos.turn + 1)
    assert report.data["scored"] == {"Ann": 2}


def test_no_wall_may_enter_an_enclosure():
    """"must never ... enter an enclosure": not inside it, not starting from its side inward;
    outward from its corner is fine."""
    pos = turns(start({"Rome": "C2", "Oslo": "D5"}), *ring("C3", 2, 2))
    refused("enclosure", lay, pos, "Rome D1E4")                  # along C-2's bottom, on into the box
    refused("enclosure", lay, pos, "Oslo D8W4")                  # along D-5's top, on into the box
    assert len(lay(pos, "C5E3").position.walls) == 5


# ------------------------------------------------------------------ laying walls

def test_walls_meet_end_to_end_at_right_angles_and_against_a_side_and_may_cross():
    """"may overlap only by the amount of their projections 18a and they may be placed to meet to
    form a right angle"; "He may also play a card which requires a wall-piece to be placed to cross
    another wall-piece on the map". The patent's pieces carry no owner: a player may cross his own
    earlier wall too."""
    pos = turns(start(), "C3E4")
    for wall in ("C7E2", "C7S2", "C5S2", "A5S2", "B5S2"):      # in line, L, T, T from above, crossing
        assert len(lay(pos, wall).position.walls) == 2, wall
    own = turns(pos, None)
    assert own.players[own.to_move] == "Ann"
    assert len(lay(own, "B4S2").position.walls) == 2


def test_two_walls_may_not_share_a_side_of_a_square():
    pos = turns(start(), "C3E4")
    refused("overlap", lay, pos, "C4E2")
    refused("overlap", lay, pos, "C6E3")                        # half along, half beyond
    refused("overlap", lay, pos, "C7W1")


def test_an_ordinary_card_lays_its_capitals_letters_along_a_side_of_its_square():
    """"the wall-piece must cover one side of the square designated by the card and must never
    extend beyond the edge of the map"."""
    pos = start({"Rome": "D3"})
    assert lay(pos, "Rome D3E4").position.walls[0].name() == "D3E4"      # top of D-3
    assert lay(pos, "Rome E1E4").position.walls                            # bottom, running past it
    assert lay(pos, "Rome B3S4").position.walls                            # left, coming down from B
    refused("wall-length", lay, pos, "Rome D3E3")
    refused("card-square", lay, pos, "Rome F3E4")
    refused("card-square", lay, pos, "Rome E8W4")                         # stops at the square's corner
    refused("map-edge", lay, pos, "Rome D4W4")
    refused("one-wall", play_turn, pos, "Ann", [("Rome", ["D3E2", "D5E2"])])


def test_several_cards_in_one_turn_make_one_straight_line_or_one_right_angle():
    """"if the Wall-pieces called for by the cards can be laid in a straight line without
    overlapping"; "so as to form a right angle"; "but may not himself play cards and place
    corresponding wall-pieces to form a crossing"."""
    pos = start()
    assert len(lay(pos, "C3E2", "C5E3").position.walls) == 2             # in line
    assert len(lay(pos, "C3E2", "C3S2").position.walls) == 2             # right angle
    assert len(lay(pos, "C3E2", "C5E1", "C6S3").position.walls) == 3     # line and angle
    refused("turn-shape", lay, pos, "C3E2", "C6E2")                      # a gap
    refused("turn-shape", lay, pos, "C3E4", "C5S2")                      # a T
    refused("turn-shape", lay, pos, "C3E4", "B4S2")                      # a crossing of his own
    refused("turn-shape", lay, pos, "C3E2", "F3E2")                      # apart


def test_a_card_is_played_once_and_not_once_its_site_is_enclosed():
    pos = turns(start({"Rome": "D3"}), "Rome D3E4")
    refused("played", lay, pos, "Rome D3S4")
    refused("played", lay, start(), "C3E2", "C3E2")


def test_the_first_round_is_one_card_drawn():
    """"the first player draws one card ... If the first card drawn is a special card, the player
    makes no play but retains the card"."""
    pos = start(first_round=True)
    refused("first-round", lay, pos, "C3E2", "C5E2")
    refused("first-round", special, pos, "Andorra", "C3E1")
    pos = turns(pos, "C3E2", "F3E2")
    assert pos.turn == 2 and len(lay(pos, "A1E2", "A3E2").position.walls) == 4


def test_turn_order_and_the_end():
    pos = start()
    refused("turn-order", play_turn, pos, "Bob", [("C3E2", ["C3E2"])])
    refused("turn-order", pass_turn, pos, "Bob")
    done = end_game(pos, {"Ann": [], "Bob": []})
    refused("game-over", lay, done, "C3E2")
    refused("game-over", end_game, done, {})


# ------------------------------------------------------------------ special cards

def test_a_special_card_lays_its_units_anywhere_if_it_completes_an_enclosure():
    """"A wall piece corresponding to a special card may be placed anywhere on the map, provided it
    completes an enclosure"; Luxembourg three units, Andorra one."""
    top, left, bottom, _ = ring("C3", 3, 3)
    pos = turns(start({"Rome": "D4"}), top, left, bottom)
    res = special(pos, "Luxembourg", "C6S3")
    assert [a.name() for a in res.closed] == ["C-3..E-5"]
    refused("wall-length", special, pos, "Luxembourg", "C6S2")
    refused("special-enclosure", special, pos, "Luxembourg", "H1E3")
    refused("special-enclosure", special, turns(pos, "C6S2", None), "Andorra", "A1E1")
    assert special(turns(pos, "C6S2", None), "Andorra", "E6S1").closed


def test_a_special_card_beside_the_wall_that_closes_is_refused():
    """In a turn of several cards each special card must itself complete an enclosure."""
    top, left, bottom, _ = ring("C3", 2, 2)
    pos = turns(start(), top, left, bottom)
    play = [("C5S2", ["C5S2"]), ("Andorra", ["E5E1"])]          # a right angle at E5
    refused("special-enclosure", play_turn, pos, pos.players[pos.to_move], play)


def test_the_vatican_lays_a_right_angle_of_up_to_sixteen_units():
    """"to form a right angle with the wall-pieces so laid containing any number of units up to
    sixteen"."""
    pos = turns(start({"Rome": "D3"}), "C3E2", "C3S2")
    res = special(pos, "Vatican City", "E3E2", "C5S2")             # bottom and right, meeting at E5
    assert totals(res.position)["Ann"] == 1
    refused("right-angle", special, pos, "Vatican City", "E3E9", "C12S9")    # 18 units
    refused("right-angle", special, pos, "Vatican City", "E3E2", "C6S2")     # not meeting
    refused("right-angle", special, pos, "Vatican City", "E3E2")
    big = turns(start(), "B2E8", "B2S8")
    assert special(big, "Vatican City", "J2E8", "B10S8").closed           # exactly 16


def test_the_united_nations_line_is_as_long_as_its_enclosures_require():
    """"to form a straight line which completes one or more enclosures, the wall-pieces containing
    such a total of units as may be required for the purpose"."""
    first, second = ring("C3", 2, 2), ring("C7", 2, 2)
    pos = turns(start({"Rome": "D3", "Oslo": "D8"}), *first[1:], *second[1:])
    res = special(pos, "United Nations", "C3E6")                    # both tops in one line
    assert [a.name() for a in res.closed] == ["C-3..D-4", "C-7..D-8"]
    assert totals(res.position)["Ann"] == 2
    refused("line-length", special, pos, "United Nations", "C2E7")  # one unit too far west
    refused("line-length", special, pos, "United Nations", "C3E7")  # one unit too far east
    assert special(pos, "United Nations", "C3E2").closed             # one of them is enough
    refused("special-enclosure", special, pos, "United Nations", "H1E4")
    refused("straight-line", special, pos, "United Nations", "C3E2", "C7E2")


# ------------------------------------------------------------------ the score

def test_scores_in_the_four_forms_of_the_game():
    """"final score is the total number of markers ... minus the total letter count of the
    unplayable cards remaining in his hand"; the fewest form "plus"; the population forms count
    the population brackets on the markers."""
    markers = {"Rome": ("D3", 3), "Oslo": ("C4", 2), "Lima": ("H8", 4), "Baku": ("H9", 1)}
    for variant, ann, bob, best in [("most-capitals", -8, 2, "Bob"), ("fewest-capitals", 8, 2, "Bob"),
                                    ("most-population", -8, 5, "Bob"), ("least-population", 8, 5, "Bob")]:
        pos = turns(start(markers, variant=variant), *ring("C3", 2, 2))
        end = end_game(pos, {"Ann": ["Lima", "Baku"], "Bob": []})
        assert totals(end) == {"Ann": ann, "Bob": bob} and winner(end) == best, variant
    pos = turns(start(markers), *ring("C3", 2, 2))
    end = end_game(pos, {"Ann": ["Lima"], "Bob": ["Rome"]})             # Rome is enclosed: dropped
    assert end.discarded == ("Rome",) and totals(end) == {"Ann": -4, "Bob": 2}
    refused("played", end_game, turns(pos, "Lima H8E4"), {"Ann": ["Lima"]})
    refused("played", end_game, pos, {"Ann": ["Lima"], "Bob": ["Lima"]})
    refused("players", end_game, pos, {"Eve": []})
    assert winner(end_game(turns(start(), *ring("C3", 2, 2)), {"Ann": [], "Bob": []})) is None    # 0 to 0


def test_the_turn_report_counts_points_that_change_hands():
    """In a population form `taken_from` is the points taken, not the markers; `already_held` is
    what the mover had inside already; the mover scores points less already_held."""
    markers = {"Rome": ("D3", 3), "Oslo": ("C4", 2), "Lima": ("B2", 4), "Baku": ("E5", 1)}
    pos = turns(start(markers, variant="most-population"), *ring("C3", 2, 2))     # Bob: 5 points
    top, left, bottom, right = ring("B2", 4, 4)
    pos = turns(pos, top, left, bottom)
    _, report = apply(pos, {"player": "Bob", "play": [{"card": right, "wall": right}]})
    [area] = report.data["enclosed"]
    assert (area["points"], area["taken_from"], area["already_held"]) == (10, {}, 5)
    assert report.data["scored"] == {"Bob": 5}
    pos = turns(pos, None)
    _, report = apply(pos, {"player": "Ann", "play": [{"card": right, "wall": right}]})
    [area] = report.data["enclosed"]
    assert (area["points"], area["taken_from"], area["already_held"], len(area["markers"])) == (10, {"Bob": 5}, 0, 4)
    assert report.data["scored"] == {"Ann": 10, "Bob": -5}
    assert "Takes 5 points from Bob" in report.text
