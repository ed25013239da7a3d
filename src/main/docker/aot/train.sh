#!/bin/sh
# Trains the ahead-of-time cache of a JDK 25 JVM (JEP 483, 514, 515) for the aot-jar build in APP_DIR: starts the
# server with -XX:AOTCacheOutput, runs the training client (AotTraining, compiled into TRAINING_CLASSES) against it,
# and stops it; the JVM writes APP_DIR/app.aot as it exits. Run it with the java, and the JVM flags (JAVA_OPTS), that
# will run the server: the cache holds only for that JVM build, and for the jar named as the server will name it,
# APP_DIR/quarkus-run.jar with APP_DIR absolute (a cache trained on "-jar quarkus-run.jar" is refused by
# "-jar /deployments/quarkus-run.jar").
#   train.sh APP_DIR TRAINING_CLASSES      JAVA: the java (default: java); JAVA_OPTS; PORT: a free port (8080)
set -eu
app=$(cd "$1" && pwd)
classes=$(cd "$2" && pwd)
java=${JAVA:-java}
port=${PORT:-8080}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

fail() {
  echo "train.sh: $1; the server's log:" >&2
  cat "$data/server.log" >&2
  exit 1
}

cd "$app"
rm -f app.aot
# durable (the image's default), on a data directory thrown away after; open access, since the client sends no
# credentials, and no per-user shares, which would refuse its 1,200 writes in a few seconds as one user's; HTTPS
# and the management interface on the ports that follow from PORT (8443 and 9000 for 8080)
# shellcheck disable=SC2086 # JAVA_OPTS holds several flags
"$java" ${JAVA_OPTS:-} -XX:AOTCacheOutput=app.aot \
  -Dwatchgate.storage.data-dir="$data/data" -Dwatchgate.storage.create-data-dir=true \
  -Dwatchgate.auth.anonymous=true -Dwatchgate.auth.authorization-mode=AlwaysAllow \
  -Dwatchgate.fairness.max-requests-inflight-per-user=0 -Dwatchgate.fairness.max-watches-per-user=0 \
  -Dwatchgate.fairness.mutating-requests-per-second-per-user=0 \
  -Dquarkus.http.port="$port" -Dquarkus.http.ssl-port=$((port + 363)) -Dquarkus.management.port=$((port + 920)) \
  -jar "$app/quarkus-run.jar" > "$data/server.log" 2>&1 &
server=$!
if ! "$java" -cp "$classes" AotTraining "http://127.0.0.1:$port"; then
  kill "$server" 2>/dev/null || true
  wait "$server" || true
  fail "the training client failed"
fi
kill -TERM "$server" 2>/dev/null || fail "the server ended before the training did"
# the JVM ends on SIGTERM with status 143 once Quarkus has shut down and the cache is written
wait "$server" || true
[ -s app.aot ] || fail "no AOT cache was written"
echo "train.sh: $(du -h app.aot | cut -f1) AOT cache in $app/app.aot"
