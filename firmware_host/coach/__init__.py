"""The coach's analysis after the game, shared out: every finished game queued, analysed by
whatever machine is free (a board while it is idle, a worker on the web host), the result kept
in Redis for the web's replay and the archive.

- :mod:`.results`: a game's analysis as it is stored (JSON) and read back, checked;
- :mod:`.jobs`: the jobs stream and its consumer group (``draughtsboard:coach:jobs``,
  ``analysts``): a job taken, done, given up;
- :mod:`.analyst`: the worker: takes a job, analyses it with :func:`engine.analysis.analyse`,
  writes the result; on a board, only while the board is idle (:class:`.analyst.IdleAnalyst`).

docs/coach.md says how a hall shares the work out.
"""
