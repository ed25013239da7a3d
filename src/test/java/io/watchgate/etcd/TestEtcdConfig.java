package io.watchgate.etcd;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The etcd configuration of a test that opens stores itself: its etcd, a prefix, short timeouts, and TLS or a user
 * if asked.
 */
record TestEtcdConfig(List<String> endpoints, String prefix, Duration requestTimeout, Duration startTimeout,
        Optional<String> caFile, Optional<String> certFile, Optional<String> keyFile, Optional<String> username,
        Optional<String> password) implements EtcdConfig {

    TestEtcdConfig(List<String> endpoints, String prefix, Duration requestTimeout) {
        this(endpoints, prefix, requestTimeout, Duration.ofSeconds(20), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    static TestEtcdConfig of(EtcdServer etcd) {
        return new TestEtcdConfig(List.of(etcd.endpoint()), "/registry", Duration.ofSeconds(5));
    }

    /** This configuration over TLS: trusting {@code caFile}, presenting the client certificate if given one. */
    TestEtcdConfig withTls(String caFile, Optional<String> certFile, Optional<String> keyFile) {
        return new TestEtcdConfig(endpoints, prefix, requestTimeout, startTimeout, Optional.of(caFile), certFile,
                keyFile, username, password);
    }

    /** This configuration, signing in to etcd as {@code username}. */
    TestEtcdConfig withUser(String username, String password) {
        return new TestEtcdConfig(endpoints, prefix, requestTimeout, startTimeout, caFile, certFile, keyFile,
                Optional.of(username), Optional.of(password));
    }

    TestEtcdConfig withStartTimeout(Duration timeout) {
        return new TestEtcdConfig(endpoints, prefix, requestTimeout, timeout, caFile, certFile, keyFile, username,
                password);
    }

    @Override
    public Duration readinessGrace() {
        return Duration.ofSeconds(10);
    }
}
