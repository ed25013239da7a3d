package io.watchgate.etcd;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Where etcd is and how to reach it, in storage mode {@code etcd}. */
@ConfigMapping(prefix = "watchgate.storage.etcd")
public interface EtcdConfig {

    /** etcd's client URLs, {@code http://} or {@code https://}: the members of one cluster. */
    @WithDefault("http://127.0.0.1:2379")
    List<String> endpoints();

    /** The key every object's key starts with, as kube-apiserver's {@code --etcd-prefix}. */
    @WithDefault("/registry")
    String prefix();

    /** etcd's user, when etcd has authentication on (with {@link #password()}). */
    Optional<String> username();

    Optional<String> password();

    /** PEM certificates of the CAs that sign etcd's serving certificates (https endpoints); else the JDK's. */
    Optional<String> caFile();

    /** PEM client certificate and its PKCS#8 key, when etcd asks for one. */
    Optional<String> certFile();

    Optional<String> keyFile();

    /**
     * How long a write may wait for etcd before it is answered 504 (it may or may not have been made), and how long
     * a write etcd took waits for this replica's cache before it is answered all the same.
     */
    @WithDefault("10s")
    Duration requestTimeout();

    /**
     * How long etcd may fail to answer before readiness says not ready (reads and watches go on from the cache
     * meanwhile; writes are 503 from the first failure).
     */
    @WithDefault("10s")
    Duration readinessGrace();

    /** How long the start may wait for etcd to be reached and the watch cache loaded, before it fails. */
    @WithDefault("60s")
    Duration startTimeout();
}
