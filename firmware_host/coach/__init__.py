"""The coach: every game analysed after it is played, each player's mistakes and progress
kept, games reviewed on the board, and drills of the rules of the hand.

- :mod:`.results`: a game's analysis as it is stored (JSON) and read back, checked;
- :mod:`.jobs`: the jobs stream and its consumer group (``draughtsboard:coach:jobs``,
  ``analysts``): a job taken, done, given up;
- :mod:`.analyst`: the worker: takes a job, analyses it with :func:`engine.analysis.analyse`,
  writes the result; on a board, only while the board is idle (:class:`.analyst.IdleAnalyst`),
  in a process of its own (:mod:`.child`);
- :mod:`.players`: what an analysed game leaves its players: missed wins for the mistake book
  (:mod:`.book`), its count of their mistakes for their progress (:mod:`.progress`, rated by
  :mod:`.rating`);
- :mod:`.drills`: the drills of the physical rules, judged from the hand;
- :mod:`.review`: the last game reviewed on the board, its mistakes lit and tried by hand;
- :mod:`.worker`: ``draughtsboard coach worker``.

docs/coach.md says how a hall shares the work out.
"""
