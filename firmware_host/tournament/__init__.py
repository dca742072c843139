"""Tournament rounds: a pairing list read into Redis for the boards, and a round's games out.

:mod:`~firmware_host.tournament.pairing` reads and checks a pairing list (CSV), keeps it per
board (the next game's PDN tags) and per round, and is what a board reads when a game opens;
:mod:`~firmware_host.tournament.export` gathers a round's games, in board order, as PDN and as a
results table. ``draughtsboard round`` (firmware_host/cli/round.py) is the command line;
docs/tournament.md the arbiter's walk-through.
"""
