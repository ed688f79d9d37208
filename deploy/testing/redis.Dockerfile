# Stand-in for redis:7.2: Debian's redis-server (7.0), run as the official image runs it:
# its files in /data, and reachable from other containers (protected mode off when no
# configuration file is given).
FROM standin/debian:bookworm
RUN apt-get update \
    && apt-get install -y --no-install-recommends redis-server redis-tools \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/redis-entrypoint.sh
WORKDIR /data
USER redis
EXPOSE 6379
ENTRYPOINT ["/usr/local/bin/redis-entrypoint.sh"]
CMD ["redis-server"]
