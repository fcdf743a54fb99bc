# Sourced by test.sh and bench.sh: a private, throwaway PostgreSQL cluster on a free loopback port.
# start_throwaway_postgres sets PG_URL and PG_DIR; stop_throwaway_postgres removes it again.

pg_bin() {
  local name=$1
  command -v "$name" 2>/dev/null && return
  ls /usr/lib/postgresql/*/bin/"$name" 2>/dev/null | sort -V | tail -n 1
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_throwaway_postgres() {
  local initdb pg_ctl port as_user=()
  initdb=$(pg_bin initdb); pg_ctl=$(pg_bin pg_ctl)
  [ -n "$initdb" ] && [ -n "$pg_ctl" ] || return 1
  PG_DIR=$(mktemp -d /tmp/portal-pg.XXXXXX)
  port=$(free_port)
  # initdb refuses to run as root: run the cluster as the postgres system user when we are root.
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || return 1
    chown postgres "$PG_DIR"
    as_user=(runuser -u postgres --)
  fi
  "${as_user[@]}" "$initdb" -D "$PG_DIR/data" -U postgres --auth=trust --no-sync >"$PG_DIR/initdb.log" 2>&1 || return 1
  "${as_user[@]}" "$pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || return 1
  PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  PG_AS_USER="${as_user[*]}"
  export PG_URL PG_DIR PG_AS_USER
}

stop_throwaway_postgres() {
  [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] || return 0
  local pg_ctl; pg_ctl=$(pg_bin pg_ctl)
  # shellcheck disable=SC2086
  $PG_AS_USER "$pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
