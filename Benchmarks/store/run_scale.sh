#!/bin/sh
# The store's scale figures (docs/performance.md): COUNT saved measurements of 10 minutes at
# 25.6 kHz x 2 channels (FULL of them with their whole series) in SQLite, copied into a
# throwaway PostgreSQL with `sonde store copy`, then `sonde measurements list` and one
# measurement's export timed on both.
#
#   sh Benchmarks/store/run_scale.sh [SONDE_BINARY [COUNT [FULL]]]
#
# Defaults: .build/release/sonde (make build), 10000, 10000. The full shape needs about
# 91 GB for each engine; FULL=100 keeps it to 0.9 GB (the list reads metadata only).
# WORK (default: a new temporary directory) holds both databases and is removed at the end.
set -eu
cd "$(dirname "$0")/../.."
SONDE=$(realpath "${1:-.build/release/sonde}")
COUNT=${2:-10000}
FULL=${3:-$COUNT}
PY=${PY:-.build/test-venv/bin/python}
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/sonde-scale.XXXXXX")}
trap 'sh Tests/Postgres/pg_cluster.sh stop "$WORK/pg"; rm -rf "$WORK"' EXIT
# The server runs as the postgres user when we are root: it must be able to reach WORK/pg.
chmod 711 "$WORK"

export SONDE_HOME="$WORK/home"
export SONDE_SCRYPT_LOG_N=10   # set-up speed only; the timed commands hash nothing
unset SONDE_DATABASE_URL
printf 'scale-password\n' | "$SONDE" register --email scale@example.com --password-stdin > /dev/null
printf 'scale-password\n' | "$SONDE" login --email scale@example.com --password-stdin > /dev/null
"$PY" Benchmarks/store/fill_store.py "$SONDE_HOME/sonde.sqlite" --email scale@example.com --count "$COUNT" --full "$FULL"

URL=$(sh Tests/Postgres/pg_cluster.sh start "$WORK/pg")
PGPASSWORD=$(cat "$WORK/pg/password") psql -q "$URL" -c "CREATE DATABASE sonde_scale"
PG_URL="${URL%/postgres}/sonde_scale"
/usr/bin/time -f "store copy: %e s, %M KiB" \
    "$SONDE" store copy --from "sqlite:$SONDE_HOME/sonde.sqlite" --to "$PG_URL" 2> "$WORK/copy.log" || {
    cat "$WORK/copy.log" >&2
    exit 1
}
tail -n 1 "$WORK/copy.log"
# What autovacuum does within a minute of a bulk load: statistics, and the visibility map
# that lets the list be answered from its covering index alone (an index-only scan).
# VACUUM=0 measures the store right after the copy instead.
if [ "${VACUUM:-1}" = 1 ]; then
    PGPASSWORD=$(cat "$WORK/pg/password") psql -q "$PG_URL" -c "VACUUM ANALYZE measurements"
fi

"$PY" Benchmarks/store/time_store.py "$SONDE" --sqlite "$SONDE_HOME/sonde.sqlite" --postgres "$PG_URL" \
    --count "$COUNT" --work "$WORK"
