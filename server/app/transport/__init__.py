"""The server's edge, and the only package that imports websockets: the frames of
requests and replies (:mod:`.session`, one connection's framing and outbox), the
websocket server (:mod:`.ws`), the HTTP side of its port as a route table (:mod:`.web`)
and the read-only pages it serves (:mod:`.pages`).
"""
