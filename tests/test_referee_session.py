"""The referees' shared command-line helpers."""
from generator.referee import names


def test_names_drop_blanks_and_spaces():
    assert names("Ann, ,Bob,") == ["Ann", "Bob"]
    assert names(None, "Player 1,Player 2") == ["Player 1", "Player 2"]
    assert names("") == []
