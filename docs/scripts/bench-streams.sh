#!/usr/bin/env bash
# Streams against single watches, same watches, same writes: 5,000 single-watch connections, then 1,000 streams
# (GET /streams, Server-Sent Events) of 5 watches each, every watch one namespace's ConfigMaps, alternated, a fresh
# server per round. Open server (anonymous, AlwaysAllow, no per-user shares), memory mode.
# usage: bench-streams.sh <checkout> <rounds>
set -u
DIR=$1; ROUNDS=${2:-2}
cd "$DIR"
[ -f /tmp/bench-cp.txt ] || ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile=/tmp/bench-cp.txt -Dmdep.includeScope=test >/dev/null
CP="$DIR/target/test-classes:$DIR/target/classes:$(cat /tmp/bench-cp.txt)"
OPEN="-Dwatchgate.auth.anonymous=true -Dwatchgate.auth.authorization-mode=AlwaysAllow -Dwatchgate.fairness.max-requests-inflight-per-user=0 -Dwatchgate.fairness.max-watches-per-user=0 -Dwatchgate.fairness.mutating-requests-per-second-per-user=0"
COMMON="--namespaces=50 --writes=3000 --warmup=500 --rate=100 --format=sse"
server() { # label
  java -Xmx1g $OPEN -Dwatchgate.storage.mode=memory -Dquarkus.http.port=8080 -Dquarkus.http.ssl-port=0 -Dquarkus.management.port=9080 -jar "$DIR/target/quarkus-app/quarkus-run.jar" > "/tmp/bench-server-$1.log" 2>&1 &
  SP=$!
  for i in $(seq 1 240); do curl -sf localhost:8080/version >/dev/null && return; sleep 0.5; done
  echo "server $1 did not start"; exit 1
}
for round in $(seq 1 "$ROUNDS"); do
  for kind in singles streams; do
    server "$kind-$round"
    if [ "$kind" = singles ]; then
      java -cp "$CP" io.watchgate.bench.WatchLoad --watchers=5000 $COMMON --server-pid=$SP | grep -E "^(watches|events|check|delivery|delivered|server CPU|verdict|RESULT)"
    else
      java -cp "$CP" io.watchgate.bench.WatchLoad --watchers=1000 --watches-per-stream=5 $COMMON --server-pid=$SP | grep -E "^(watches|events|check|delivery|delivered|server CPU|verdict|RESULT)"
    fi
    kill $SP; wait $SP 2>/dev/null
  done
done
