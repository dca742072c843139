"""Logistic ("Texel") tuning of the evaluation: self-play positions, the fit, the generated weights.

- :mod:`.selfplay`: positions from seeded self-play games of the built-in engine, labelled by
  the game's result (pure: the same arguments give the same positions).
- :mod:`.teacher`: positions of game records labelled by a stronger engine's score instead
  (bench/scan_labels.py asks Scan 2.0).
- :mod:`.dataset`: the gzip text file of those positions (byte-for-byte reproducible).
- :mod:`.fit`: the features of each position, K, and the integer weights that minimise the
  logistic loss (pure).
- :mod:`.render`: ``engine/weights.py`` as text.

``draughtsboard tune selfplay`` and ``draughtsboard tune fit`` (firmware_host/cli/tune.py)
drive them; docs/evaluation.md tells the whole story.
"""
