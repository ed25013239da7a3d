package io.watchgate.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens N watch streams on which nothing happens and holds them for a while, so that the server's memory per
 * idle watcher can be measured (see docs/benchmarks.md). A main program on the test classpath, not a test.
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.IdleWatchers -Dexec.classpathScope=test \
 *   -Dexec.args="15000 60"      # watchers, seconds to hold them: one HTTP/1.1 connection each
 * ... -Dexec.args="100000 60 8080 1000"   # and a port, and HTTP/2 (cleartext) with this many watches per
 *                                         # connection
 * </pre>
 */
public final class IdleWatchers {

    public static void main(String[] args) throws Exception {
        int watchers = Integer.parseInt(args[0]);
        int seconds = Integer.parseInt(args[1]);
        int port = args.length > 2 ? Integer.parseInt(args[2]) : 8080;
        int streamsPerConnection = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        HttpClientOptions options = new HttpClientOptions().setKeepAlive(true);
        PoolOptions pool = new PoolOptions().setHttp1MaxSize(watchers + 10).setMaxWaitQueueSize(-1);
        if (streamsPerConnection > 1) {
            options.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
                    .setHttp2MultiplexingLimit(streamsPerConnection);
            pool.setHttp2MaxSize((watchers + streamsPerConnection - 1) / streamsPerConnection);
        }
        HttpClient client = vertx.createHttpClient(options, pool);
        AtomicInteger established = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(watchers);
        for (int i = 0; i < watchers; i++) {
            RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setHost("localhost").setPort(port)
                    .setURI("/api/v1/namespaces/idle-" + (i % 100) + "/configmaps?watch=true&timeoutSeconds=3600");
            client.request(request).compose(req -> req.send()).onComplete(response -> {
                if (response.succeeded() && response.result().statusCode() == 200) {
                    established.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                }
                done.countDown();
            });
        }
        done.await(300, TimeUnit.SECONDS);
        System.out.println("established " + established.get() + " idle watches (" + failed.get() + " failed); holding "
                + seconds + " s");
        Thread.sleep(seconds * 1000L);
        vertx.close();
    }
}
