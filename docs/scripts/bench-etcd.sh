#!/usr/bin/env bash
# Storage modes side by side, one sitting: embedded durable, etcd with one replica, etcd with three replicas sharing
# the watchers (watcher i and writer connection i on replica i mod 3). Open server (anonymous, AlwaysAllow, no shares).
# usage: bench-etcd.sh <checkout> <rounds>
set -u
DIR=$1; ROUNDS=${2:-1}
cd "$DIR"
[ -f /tmp/bench-cp.txt ] || ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile=/tmp/bench-cp.txt -Dmdep.includeScope=test >/dev/null
CP="$DIR/target/test-classes:$DIR/target/classes:$(cat /tmp/bench-cp.txt)"
OPEN="-Dwatchgate.auth.anonymous=true -Dwatchgate.auth.authorization-mode=AlwaysAllow -Dwatchgate.fairness.max-requests-inflight-per-user=0 -Dwatchgate.fairness.max-watches-per-user=0 -Dwatchgate.fairness.mutating-requests-per-second-per-user=0"
load() { java -cp "$CP" io.watchgate.bench.WatchLoad "$@"; }
PIDS=()
server() { # port label props...
  port=$1; label=$2; shift 2
  java -Xmx1g $OPEN -Dquarkus.http.port=$port -Dquarkus.http.ssl-port=0 -Dquarkus.management.port=$((port + 1000)) "$@" -jar "$DIR/target/quarkus-app/quarkus-run.jar" > "/tmp/bench-server-$label.log" 2>&1 &
  PIDS+=($!)
  for i in $(seq 1 240); do curl -sf localhost:$port/version >/dev/null && return; sleep 0.5; done
  echo "server $label did not start"; exit 1
}
stop_servers() { for p in "${PIDS[@]}"; do kill $p; wait $p 2>/dev/null; done; PIDS=(); }
start_etcd() {
  rm -rf /tmp/bench-etcd; mkdir -p /tmp/bench-etcd
  etcd --name bench --data-dir /tmp/bench-etcd/data --listen-client-urls http://127.0.0.1:23790 --advertise-client-urls http://127.0.0.1:23790 \
    --listen-peer-urls http://127.0.0.1:23800 --initial-advertise-peer-urls http://127.0.0.1:23800 --initial-cluster bench=http://127.0.0.1:23800 \
    --max-request-bytes=4194304 --logger zap --log-level warn > /tmp/bench-etcd/etcd.log 2>&1 &
  EP=$!
  for i in $(seq 1 100); do curl -sf localhost:23790/health | grep -q true && return; sleep 0.2; done
  echo "etcd did not start"; exit 1
}
ETCD="-Dwatchgate.storage.mode=etcd -Dwatchgate.storage.etcd.endpoints=http://127.0.0.1:23790"
bench() { # label urls pids...
  label=$1; urls=$2; pid=$3
  echo "== $label writes"
  load --url=$urls --watchers=0 --namespaces=4 --writes=30000 --warmup=5000 --rate=0 --connections=64 --objects=0 --server-pid=$pid 2>&1 | grep -E "RESULT|verdict"
  echo "== $label fanout"
  load --url=$urls --watchers=1000 --namespaces=10 --writes=10000 --warmup=2000 --rate=0 --server-pid=$pid 2>&1 | grep -E "RESULT|verdict|server CPU"
}
for round in $(seq 1 "$ROUNDS"); do
  rm -rf /tmp/bench-data; mkdir -p /tmp/bench-data
  server 8080 durable -Dwatchgate.storage.mode=durable -Dwatchgate.storage.data-dir=/tmp/bench-data -Dwatchgate.storage.create-data-dir=true -Dwatchgate.tls.bootstrap=false -Dwatchgate.auth.bootstrap-admin=false
  bench "round $round EMBEDDED-DURABLE" http://localhost:8080 ${PIDS[0]}
  stop_servers
  start_etcd
  server 8080 etcd1 $ETCD
  bench "round $round ETCD-1" http://localhost:8080 ${PIDS[0]}
  stop_servers
  server 8080 etcd3a $ETCD; server 8081 etcd3b $ETCD; server 8082 etcd3c $ETCD
  bench "round $round ETCD-3 (server figures: replica a only)" http://localhost:8080,http://localhost:8081,http://localhost:8082 ${PIDS[0]}
  stop_servers
  kill $EP; wait $EP 2>/dev/null
done
exit 0
