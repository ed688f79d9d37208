# Stand-in for haproxy:2.9: Debian's HAProxy (2.6), with the configuration where the
# official image reads it, run in the foreground as the unprivileged user haproxy, and
# stopped gracefully (SIGUSR1) as the official image is.
FROM standin/debian:bookworm
RUN apt-get update \
    && apt-get install -y --no-install-recommends haproxy \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /usr/local/etc/haproxy
STOPSIGNAL SIGUSR1
USER haproxy
CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
