package io.watchgate.etcd;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The server in storage mode etcd, on an etcd of its own ({@link EtcdServer}) that starts before it. A test class of
 * this profile is {@code @EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")}, so that it is skipped, not
 * failed, where etcd is not installed.
 */
public class EtcdOn implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // one replica, which takes the collector's lease at its start; renewing it rarely keeps the store quiet
        // but for the tests' own writes, which some of them count
        return Map.of("watchgate.storage.mode", "etcd",
                "watchgate.garbage-collector.lease-duration", "3h",
                "watchgate.garbage-collector.renew-deadline", "2h",
                "watchgate.garbage-collector.retry-period", "1h");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(Etcd.class));
    }

    /** The profile's etcd: started before the server, stopped after it. */
    public static class Etcd implements QuarkusTestResourceLifecycleManager {

        private EtcdServer etcd;

        @Override
        public Map<String, String> start() {
            etcd = EtcdServer.start();
            return Map.of("watchgate.storage.etcd.endpoints", etcd.endpoint());
        }

        @Override
        public void stop() {
            if (etcd != null) {
                etcd.close();
            }
        }
    }
}
