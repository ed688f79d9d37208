"""Load test of the race server against its ceiling, a bare echo server on the same stack.

    .venv/bin/python -m bench.load [--quick] [--racers 64] [--room 4] [--procs 2]
                                   [--seconds 5] [--scale 10000] [--rate R]
                                   [--json-out FILE] [--profile FILE.svg] [--trace FILE.csv]
                                   [--server-tree DIR] [--pin] [--lean-echo]

It starts its own Redis (``EmbeddedRedis`` in a temporary directory, append-only as in
production), the race server (``patience-race-server`` with ``PATIENCE_REDIS_URL`` set to
that Redis, ``PATIENCE_RATE``/``PATIENCE_BURST`` raised to 10^6 so no connection is
rate-limited, ``PATIENCE_MAX_CONNECTIONS``/``PATIENCE_MAX_CONNECTIONS_PER_IP`` at 0 (no
cap: every racer connects from 127.0.0.1, 10,000 of them in the scale mode),
``PATIENCE_REGISTER_RATE=0`` and ``PATIENCE_DEAL_RATE=0`` (its players register from one
address and deal a game every few seconds each), and ``PATIENCE_COUNTDOWN=0`` so
rematches start at once) and the echo server
(``bench/echo.py``), all on 127.0.0.1. Or it targets a running server: ``--url ws://...``
with ``--redis-url`` (for ``INFO``) and ``--server-pid`` (for CPU and RSS).

Load comes from ``--procs`` separate OS processes, each running many websocket
connections on one asyncio (uvloop) loop, with a client of its own that costs the machine
as little as it can (``bench/wsclient.py``: frames by hand on an asyncio protocol; each
reply handled in the connection's callback, which sends the next move or arms its timer;
of a reply only the fields the load reads are decoded, the view skipped). The load
processes share the machine with what they measure, and websockets' own client decoding
every view took more CPU a move than the server. Each process opens its share of ``--racers``
racers: every racer registers (its own name), and they gather in rooms of ``--room``: the
host creates the room, the others join and say ready, the host starts. Then every racer
plays its race game with moves taken at random from the ``legal`` list of the last reply,
sending the game id with each move. A racer resigns a game after 100 to 200 moves, drawn
for each race from its room's code and number (so the racers of a room finish together,
and the rooms' races end at different times). A racer whose race game has ended (won, lost
or resigned) plays solo games (``new_game``, resigned after 100 to 200 moves too) until
the room's ``results`` come; the host then calls a ``rematch`` and everyone switches to the
new race game at ``race_start``. So about 95% of the moves are race moves, each told to the 4
members of its room in ``progress`` events (counted; the server throttles them per room,
``PATIENCE_PROGRESS_INTERVAL``, 0.1 s by default), and no racer waits idle.
The echo phases drive the same number of connections, from the same processes, with the
same loop: a random entry of the reply's ``legal`` list sent as a ``move``. The echo uses
websockets' asyncio API; ``--lean-echo`` gives it the race server's own framing instead
(``bench/echo.py --lean``), a ceiling for that.

Phases, each with a warm-up whose samples are dropped:

1. saturating, echo then server: each connection sends its next request as soon as the
   reply to the last one arrives. Gives the ceiling and our throughput.
2. paced, echo then server, at a total rate of half the echo ceiling measured in phase 1
   (each connection at its share of that rate, at a random phase). Gives p99 at half the
   ceiling load. Latency is always from just before the send to just after the reply is
   decoded; sends later than 5 ms behind their schedule are counted as ``late``. A
   connection behind its schedule sends at once to catch up, except after its requests
   between games (resign, new game, rematch): a racer starts a game on a fresh schedule
   rather than make up for that time with a burst of moves.
   A full run also paces the server at a quarter of the ceiling.
3. scale: a fresh server (same Redis, emptied) and ``--scale`` racers in rooms of
   ``--room``, every race started and one move played by every racer, then all connected
   and idle. RSS per racer is the growth of the server's RSS over its idle RSS, divided
   by the racers.

A request that gets no reply, or a racer whose race start does not come, for ``WAIT``
(120) seconds fails the run saying which, rather than leaving it waiting.

Server CPU and RSS come from /proc via psutil (CPU as a share of one core over the
measured window), Redis commands/s from ``INFO stats`` ``total_commands_processed``.
Only moves count as accepted moves and are timed; ``new_game``, ``resign`` and
``rematch`` are sent too and counted as other requests. ``other CPU %`` is what the
machine spent on processes that are not the benchmark's: a run where it is high was
disturbed. ``--profile`` records the server with py-spy during its saturating phase;
``--trace`` writes every timed move (phase, send time, round trip) to a CSV file, to see
when in a phase the slow ones come (a move sent just before the window whose reply came
inside it has a negative send time).

The modules: :mod:`.client` (a load connection, its move loop and its counts),
:mod:`.racers` (the racers and their rooms), :mod:`.phases` (a phase in the load processes
and in the parent), :mod:`.workers` (the load processes), :mod:`.servers` (Redis, the
server and the echo server started and stopped; shared with the other benchmarks),
:mod:`.report` (ratios, targets, the table) and :mod:`.__main__` (the command line and the
run). Run it from the repository's root (``make bench`` does).
"""
