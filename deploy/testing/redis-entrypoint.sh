#!/bin/sh
# As the official image's entry point: redis-server with no configuration file listens
# to other containers (protected mode off).
set -e
if [ "${1:-}" = "redis-server" ]; then
    shift
    set -- redis-server --protected-mode no "$@"
fi
exec "$@"
