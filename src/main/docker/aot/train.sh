#!/bin/sh
# Trains the ahead-of-time cache of a JDK 25 JVM (JEP 483, 514, 515) for the aot-jar build in APP_DIR: starts the
# server with -XX:AOTCacheOutput, runs the training client (AotTraining, compiled into TRAINING_CLASSES) against it,
# and stops it; the JVM writes APP_DIR/app.aot as it exits. Run it with the java that will run the server: the cache
# holds only for that JVM build, and for the jar named as the server will name it, APP_DIR/quarkus-run.jar with
# APP_DIR absolute (a cache trained on "-jar quarkus-run.jar" is refused by "-jar /deployments/quarkus-run.jar").
#   train.sh APP_DIR TRAINING_CLASSES        JAVA: the java to use (default: java); PORT: a free port (8080)
set -eu
app=$(cd "$1" && pwd)
classes=$(cd "$2" && pwd)
java=${JAVA:-java}
port=${PORT:-8080}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

cd "$app"
rm -f app.aot
# durable (the image's default), on a data directory thrown away after; open access, since the client sends no
# credentials; the management interface on a port of its own, away from any server already on 9000
"$java" -XX:AOTCacheOutput=app.aot -Dwatchgate.storage.data-dir="$data/data" \
  -Dwatchgate.storage.create-data-dir=true \
  -Dwatchgate.auth.anonymous=true -Dwatchgate.auth.authorization-mode=AlwaysAllow \
  -Dquarkus.http.port="$port" -Dquarkus.http.ssl-port=$((port + 363)) -Dquarkus.management.port=$((port + 920)) \
  -jar "$app/quarkus-run.jar" > "$data/server.log" 2>&1 &
server=$!
if ! "$java" -cp "$classes" AotTraining "http://127.0.0.1:$port"; then
  kill "$server" || true
  wait "$server" || true
  cat "$data/server.log" >&2
  exit 1
fi
kill -TERM "$server"
# the JVM ends on SIGTERM with status 143 once Quarkus has shut down and the cache is written
wait "$server" || true
if [ ! -s app.aot ]; then
  echo "train.sh: no AOT cache was written" >&2
  cat "$data/server.log" >&2
  exit 1
fi
echo "train.sh: $(du -h app.aot | cut -f1) AOT cache in $app/app.aot"
