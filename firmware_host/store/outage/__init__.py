"""Redis is down: the store's one outage path, in one room.

While Redis is away every write waits in a durable spool on disk and the session and the game in
play are answered from it; when Redis answers again the spool is flushed, in order and exactly
once; behind Redis Sentinel a move counts once a replica has it, so a failover loses nothing:

- :mod:`.route`: :class:`~.route.Outage`, whether Redis is away and where a write goes;
- :mod:`.failures`: which Redis failures are an outage, which refuse a write for good;
- :mod:`.spool`: the fsynced queue of writes on disk;
- :mod:`.flush`: the spool replayed into Redis, exactly once;
- :mod:`.offline` and :mod:`.local`: what the store answers while Redis is away;
- :mod:`.replicas`: a write confirmed by a replica.
"""
