package io.watchgate.watch;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.etcd.EtcdOn;
import org.junit.jupiter.api.condition.EnabledIf;

/** The watch protocol, every case of it, with the objects in etcd and the watches served from the watch cache. */
@QuarkusTest
@TestProfile(EtcdOn.class)
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
class WatchProtocolOnEtcdTest extends WatchProtocolTest {
}
