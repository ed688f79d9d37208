# Stand-in for python:3.11-slim: Debian's Python 3.11 with venv and its headers (the
# official image has them; the server's build stage compiles against them), `python` on
# PATH, and pip and setuptools installed as the official image has them, in /usr/local
# (from the wheels Debian ships for venv, offline), so that `python -m pip uninstall`
# works on them as on the official image: no python3-pip, whose pip refuses to uninstall
# itself, and no EXTERNALLY-MANAGED marker, which the official image has not either.
FROM standin/debian:bookworm
# the machine's own certificate authorities (standins.sh puts them in certs/), for pip
COPY certs/ /usr/local/share/ca-certificates/
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3 python3-venv python3-dev python3-pip-whl python3-setuptools-whl \
        ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && update-ca-certificates \
    && ln -s /usr/bin/python3 /usr/local/bin/python \
    && rm -f /usr/lib/python3.11/EXTERNALLY-MANAGED \
    && PYTHONPATH=$(echo /usr/share/python-wheels/pip-*.whl) python3 -m pip install \
        --no-index --find-links /usr/share/python-wheels pip setuptools \
    && python -m pip --version
ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
CMD ["python3"]
