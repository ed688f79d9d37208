# Stand-in for python:3.11-slim: Debian's Python 3.11 with venv, pip and its headers
# (the official image has them; the server's build stage compiles against them), and
# `python` on PATH as in the official image.
FROM standin/debian:bookworm
# the machine's own certificate authorities (standins.sh puts them in certs/), for pip
COPY certs/ /usr/local/share/ca-certificates/
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3 python3-venv python3-pip python3-dev ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && update-ca-certificates \
    && ln -s /usr/bin/python3 /usr/local/bin/python
ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
CMD ["python3"]
