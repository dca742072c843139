"""The Hub protocol (Scan's): ``protocol`` (lines as typed messages), ``notation`` (moves,
positions, scores and variant names on the wire), ``process`` (the engine process), ``client``
(the client and the blocking ``HubEngine``), ``config`` (how to run an engine), ``server``."""
