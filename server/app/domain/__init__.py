"""The app's rules, free of I/O: the live game record (:mod:`.games`), the race room and
its state machine (:mod:`.room`), the daily challenge's days and seeds (:mod:`.daily`),
board ids and scores (:mod:`.boards`), replays and their shaping (:mod:`.replays`), the
views a client is sent (:mod:`.views`).

Nothing here imports asyncio, Redis or websockets (``tests/app/test_domain_purity.py``):
these modules are tested without a server, and the handlers carry out what they decide.
"""
