#!/usr/bin/env bash
# Fan-out of one replica, embedded durable against etcd, alternated, with enough writer connections that the
# writes' round trips to etcd do not bound the events: the fan-out at full speed (--connections=16), and at one
# write rate both sustain (--rate=250), where events/s are equal and latency and server CPU tell the difference.
# With PIN=1 the server runs on CPU 0 alone and etcd and the load tool on CPU 1 (taskset), so that etcd, which
# would run on other machines in a cluster, takes no CPU from the gateway: a replica's own fan-out.
# usage: [PIN=1] bench-etcd-fanout.sh <checkout> <rounds>   (etcd on the PATH: Debian's etcd-server)
set -u
DIR=$1; ROUNDS=${2:-2}
cd "$DIR"
[ -f /tmp/bench-cp.txt ] || ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile=/tmp/bench-cp.txt -Dmdep.includeScope=test >/dev/null
CP="$DIR/target/test-classes:$DIR/target/classes:$(cat /tmp/bench-cp.txt)"
OPEN="-Dwatchgate.auth.anonymous=true -Dwatchgate.auth.authorization-mode=AlwaysAllow -Dwatchgate.fairness.max-requests-inflight-per-user=0 -Dwatchgate.fairness.max-watches-per-user=0 -Dwatchgate.fairness.mutating-requests-per-second-per-user=0"
SERVER_CPU=""; OTHER_CPU=""
if [ "${PIN:-0}" = 1 ]; then SERVER_CPU="taskset -c 0"; OTHER_CPU="taskset -c 1"; fi
load() { $OTHER_CPU java -cp "$CP" io.watchgate.bench.WatchLoad "$@"; }
server() { # label props...
  label=$1; shift
  $SERVER_CPU java -Xmx1g $OPEN -Dquarkus.http.port=8080 -Dquarkus.http.ssl-port=0 -Dquarkus.management.port=9080 "$@" -jar "$DIR/target/quarkus-app/quarkus-run.jar" > "/tmp/bench-server-$label.log" 2>&1 &
  SP=$!
  for i in $(seq 1 240); do curl -sf localhost:8080/version >/dev/null && return; sleep 0.5; done
  echo "server $label did not start"; exit 1
}
start_etcd() {
  rm -rf /tmp/bench-etcd; mkdir -p /tmp/bench-etcd
  $OTHER_CPU etcd --name bench --data-dir /tmp/bench-etcd/data --listen-client-urls http://127.0.0.1:23790 --advertise-client-urls http://127.0.0.1:23790 \
    --listen-peer-urls http://127.0.0.1:23800 --initial-advertise-peer-urls http://127.0.0.1:23800 --initial-cluster bench=http://127.0.0.1:23800 \
    --max-request-bytes=4194304 --logger zap --log-level warn > /tmp/bench-etcd/etcd.log 2>&1 &
  EP=$!
  for i in $(seq 1 100); do curl -sf localhost:23790/health | grep -q true && return; sleep 0.2; done
  echo "etcd did not start"; exit 1
}
for round in $(seq 1 "$ROUNDS"); do
  for side in EMBEDDED-DURABLE ETCD-1; do
    if [ $side = ETCD-1 ]; then
      start_etcd; server $side -Dwatchgate.storage.mode=etcd -Dwatchgate.storage.etcd.endpoints=http://127.0.0.1:23790
    else
      rm -rf /tmp/bench-data; mkdir -p /tmp/bench-data
      server $side -Dwatchgate.storage.mode=durable -Dwatchgate.storage.data-dir=/tmp/bench-data -Dwatchgate.tls.bootstrap=false -Dwatchgate.auth.bootstrap-admin=false
    fi
    echo "== round $round $side fanout, full speed"
    load --watchers=1000 --namespaces=10 --writes=10000 --warmup=2000 --rate=0 --connections=16 --server-pid=$SP 2>&1 | grep -E "RESULT|verdict"
    echo "== round $round $side fanout, 250 writes/s"
    load --watchers=1000 --namespaces=10 --writes=7500 --warmup=1000 --rate=250 --connections=16 --server-pid=$SP 2>&1 | grep -E "RESULT|verdict"
    kill $SP; wait $SP 2>/dev/null
    [ $side = ETCD-1 ] && { kill $EP; wait $EP 2>/dev/null; }
  done
done
exit 0
