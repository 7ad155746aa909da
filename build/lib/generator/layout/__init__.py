"""Print layout: imposition of cards on sheets, shop pages, marks, duplex backs, tiling."""
