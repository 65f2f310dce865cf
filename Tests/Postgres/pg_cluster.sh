#!/bin/sh
# A throwaway PostgreSQL server for the store tests: a new cluster in a temporary
# directory, listening on a free loopback port (and a Unix socket in the directory), with
# fsync off (tests need no durability), stopped and removed afterwards.
#
#   pg_cluster.sh start DIR      makes and starts a cluster in DIR; prints its URL
#   pg_cluster.sh stop DIR       stops it and removes DIR
#   pg_cluster.sh run CMD ARGS   start in a new temporary directory, run CMD with
#                                SONDE_TEST_DATABASE_URL set, stop (also on failure or ^C)
#
# initdb refuses to run as root, so as root the server runs as Debian's `postgres` user.
# Connections over TCP need the password in the URL (scram-sha-256), as a lab's server would.
set -eu

bin_dir() {
    if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$dir" ]; then
        echo "pg_cluster.sh: no PostgreSQL server in /usr/lib/postgresql: apt-get install postgresql" >&2
        exit 1
    fi
    echo "$dir"
}

# Runs a command as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    dir=$1
    bin=$(bin_dir)
    mkdir -p "$dir"
    chmod 700 "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    printf '%s\n' "$password" > "$dir/password"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir/password"; fi
    if ! as_owner "$bin/initdb" -D "$dir/data" -U sonde --pwfile="$dir/password" --auth-local=trust \
        --auth-host=scram-sha-256 -E UTF8 --no-locale > "$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        exit 1
    fi
    port=$(free_port)
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
        start > /dev/null; then
        cat "$dir/server.log" >&2
        exit 1
    fi
    echo "postgres://sonde:$password@127.0.0.1:$port/postgres"
}

stop() {
    dir=$1
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
start) start "$2" ;;
stop) stop "$2" ;;
run)
    shift
    dir=$(mktemp -d "${TMPDIR:-/tmp}/sonde-pg.XXXXXX")
    trap 'stop "$dir"' EXIT
    trap 'exit 130' INT TERM
    SONDE_TEST_DATABASE_URL=$(start "$dir")
    export SONDE_TEST_DATABASE_URL
    echo "PostgreSQL for the tests: ${SONDE_TEST_DATABASE_URL%%:*}://sonde@${SONDE_TEST_DATABASE_URL#*@} (in $dir)"
    "$@"
    ;;
*)
    echo "usage: pg_cluster.sh start DIR | stop DIR | run COMMAND [ARGS...]" >&2
    exit 2
    ;;
esac
