#!/usr/bin/env bash
# Three Data Hub instances on one PostgreSQL behind HAProxy, with buying and signing-in traffic and
# a rolling SIGTERM restart. Usage: deploy/test-cluster.sh [ROUNDS]  (loopback ports 3160-3164,
# PostgreSQL on 3165; override with CLUSTER_BASE_PORT / CLUSTER_PG_PORT). Exits non-zero on any
# failed request, lost session, reset half-sent request or order settled twice.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE=node_modules/.bin/node
[ -x "$NODE" ] || NODE=node
if [ ! -x /usr/sbin/haproxy ]; then
  echo "HAProxy is needed at /usr/sbin/haproxy: apt-get install -y haproxy (Debian's package)"
  exit 1
fi
if [ ! -f dist/server/entry.mjs ]; then
  echo "No build yet: npm run build (the instances serve a build made beforehand)"
  npm run build
fi
rounds=${1:-1}
for i in $(seq 1 "$rounds"); do
  echo "=== round $i of $rounds"
  "$NODE" deploy/cluster-test.ts
done
