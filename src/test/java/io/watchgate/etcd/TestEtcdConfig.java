package io.watchgate.etcd;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The etcd configuration of a test that opens stores itself: one etcd, a prefix, short timeouts. */
record TestEtcdConfig(List<String> endpoints, String prefix, Duration requestTimeout) implements EtcdConfig {

    static TestEtcdConfig of(EtcdServer etcd) {
        return new TestEtcdConfig(List.of(etcd.endpoint()), "/registry", Duration.ofSeconds(5));
    }

    @Override
    public Optional<String> username() {
        return Optional.empty();
    }

    @Override
    public Optional<String> password() {
        return Optional.empty();
    }

    @Override
    public Optional<String> caFile() {
        return Optional.empty();
    }

    @Override
    public Optional<String> certFile() {
        return Optional.empty();
    }

    @Override
    public Optional<String> keyFile() {
        return Optional.empty();
    }

    @Override
    public Duration readinessGrace() {
        return Duration.ofSeconds(10);
    }

    @Override
    public Duration startTimeout() {
        return Duration.ofSeconds(20);
    }
}
