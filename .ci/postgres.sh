# Starts Debian's PostgreSQL cluster and exports DATABASE_URL for a fresh test database.
# Sourced by .ci/run; the tests use the database to run the service's suite on real PostgreSQL.
cluster=$(pg_lsclusters --no-header | awk 'NR == 1 { print $1 " " $2 }')
if [ -z "$cluster" ]; then
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  as_root pg_createcluster "$version" main
  cluster="$version main"
fi
# shellcheck disable=SC2086
as_root pg_ctlcluster $cluster start || true
port=$(pg_lsclusters --no-header | awk -v c="$cluster" '$1 " " $2 == c { print $3 }')
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
as_root su postgres -c "psql -q -p $port -v ON_ERROR_STOP=1" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'inbox_ci') THEN
    CREATE ROLE inbox_ci LOGIN SUPERUSER PASSWORD 'inbox_ci';
  END IF;
END \$\$;
DROP DATABASE IF EXISTS inbox_ci;
CREATE DATABASE inbox_ci OWNER inbox_ci;
SQL
export DATABASE_URL="postgres://inbox_ci:inbox_ci@127.0.0.1:${port}/inbox_ci"
echo "ci: PostgreSQL ready at 127.0.0.1:${port}"
