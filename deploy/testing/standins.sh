#!/bin/sh
# Stand-ins for the official images deploy/ is built on (python:3.11-slim, redis:7.2,
# haproxy:2.9), made from Debian's packages, for a machine whose Docker daemon cannot
# reach an image registry. Not part of the product: see README.md beside this file.
#
#   sudo deploy/testing/standins.sh        (needs debootstrap and a Docker daemon)
#
# A Debian base is made with debootstrap and `docker import`ed, then the three images are
# built from it with Debian's python3, redis-server and haproxy, tagged with the official
# names so that deploy/Dockerfile and deploy/compose.yaml use them unchanged. Run again,
# it reuses the base image; `docker rmi standin/debian:bookworm` to make it anew.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
base=standin/debian:bookworm
work=

if ! docker image inspect "$base" >/dev/null 2>&1; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    echo "making the Debian base (debootstrap, about a minute)"
    # ${DEBIAN_MIRROR:-} : debootstrap's own default mirror unless one is given
    debootstrap --variant=minbase bookworm "$work/rootfs" ${DEBIAN_MIRROR:-} >"$work/log" 2>&1 \
        || { tail -20 "$work/log"; exit 1; }
    tar -C "$work/rootfs" -c . | docker import - "$base"
fi

# the build context: these files, and the certificate authorities this machine adds to
# Debian's (/usr/local/share/ca-certificates), so that pip in the image trusts what it
# trusts here (a network that inspects TLS)
context=$(mktemp -d)
trap 'rm -rf "$context" ${work:+"$work"}' EXIT
cp "$here"/*.Dockerfile "$here"/*.sh "$context"/
mkdir "$context/certs"
touch "$context/certs/.keep"
for cert in /usr/local/share/ca-certificates/*.crt; do
    [ -e "$cert" ] && cp "$cert" "$context/certs/"
done

for image in python:3.11-slim redis:7.2 haproxy:2.9; do
    name=${image%%:*}
    echo "building the stand-in $image"
    docker build --quiet -t "$image" -f "$context/$name.Dockerfile" "$context"
done
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' \
    | grep -E '^(standin/debian:bookworm|python:3.11-slim|redis:7.2|haproxy:2.9) '
