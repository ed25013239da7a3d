#!/usr/bin/env bash
# One replica's fan-out at full speed, alternating builds and storage modes in one sitting, pinned: the server on
# CPU 0 alone, etcd (when used) and the load tool on CPU 1. Each spec is label:checkout:mode, mode durable or etcd;
# each checkout needs `./mvnw package -DskipTests` (and test-compile) first. Compare ratios within a round: this
# machine's speed drifts between rounds.
# usage: bench-fanout-ab.sh <rounds> label:checkout:mode...   (etcd on the PATH: Debian's etcd-server)
set -u
ROUNDS=$1; shift
[ -f /tmp/bench-cp.txt ] || ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile=/tmp/bench-cp.txt -Dmdep.includeScope=test >/dev/null
OPEN="-Dwatchgate.auth.anonymous=true -Dwatchgate.auth.authorization-mode=AlwaysAllow -Dwatchgate.fairness.max-requests-inflight-per-user=0 -Dwatchgate.fairness.max-watches-per-user=0 -Dwatchgate.fairness.mutating-requests-per-second-per-user=0"
for round in $(seq 1 "$ROUNDS"); do
  for spec in "$@"; do
    IFS=: read -r LABEL DIR MODE <<< "$spec"
    CP="$DIR/target/test-classes:$DIR/target/classes:$(cat /tmp/bench-cp.txt)"
    rm -rf /tmp/bench-ab-etcd /tmp/bench-ab-data; mkdir -p /tmp/bench-ab-etcd /tmp/bench-ab-data
    EP=""
    if [ "$MODE" = etcd ]; then
      taskset -c 1 etcd --name bench --data-dir /tmp/bench-ab-etcd/data --listen-client-urls http://127.0.0.1:23790 \
        --advertise-client-urls http://127.0.0.1:23790 --listen-peer-urls http://127.0.0.1:23800 \
        --initial-advertise-peer-urls http://127.0.0.1:23800 --initial-cluster bench=http://127.0.0.1:23800 \
        --max-request-bytes=4194304 --logger zap --log-level warn > /tmp/bench-ab-etcd/etcd.log 2>&1 &
      EP=$!
      for i in $(seq 1 100); do curl -sf localhost:23790/health | grep -q true && break; sleep 0.2; done
      PROPS="-Dwatchgate.storage.mode=etcd -Dwatchgate.storage.etcd.endpoints=http://127.0.0.1:23790"
    else
      PROPS="-Dwatchgate.storage.mode=durable -Dwatchgate.storage.data-dir=/tmp/bench-ab-data -Dwatchgate.tls.bootstrap=false -Dwatchgate.auth.bootstrap-admin=false"
    fi
    taskset -c 0 java -Xmx1g $OPEN -Dquarkus.http.port=8080 -Dquarkus.http.ssl-port=0 -Dquarkus.management.port=9080 \
      $PROPS -jar "$DIR/target/quarkus-app/quarkus-run.jar" > "/tmp/bench-ab-server-$LABEL.log" 2>&1 &
    SP=$!
    for i in $(seq 1 240); do curl -sf localhost:8080/version >/dev/null && break; sleep 0.5; done
    R=$(taskset -c 1 java -cp "$CP" io.watchgate.bench.WatchLoad --watchers=1000 --namespaces=10 --writes=10000 \
      --warmup=2000 --rate=0 --connections=16 --server-pid=$SP 2>&1 | grep -E "RESULT|verdict" | tr '\n' ' ')
    echo "round $round $LABEL: $R"
    kill $SP; wait $SP 2>/dev/null
    [ -n "$EP" ] && { kill $EP; wait $EP 2>/dev/null; }
  done
done
exit 0
