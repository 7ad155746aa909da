"""`pnp studio`: a page on this machine showing every card of a folder's decks as they are saved.

- cards.py: what the page shows (the Studio): each card's face and back as a picture keyed by what
  draws it (its layout, its values, its files' stat), so a save redraws only the cards it changed;
  a card that no longer draws keeps its last good picture under its error; a spec that no longer
  reads keeps every card and says why at the top;
- printing.py: the print files (`pnp build`) made again in the background after a save;
- command.py: the command (the server, the watch, the browser opened).
The web layer is generator/serve/ (routes/studio.py, static/studio.*): it names no game.
"""
