package io.watchgate.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.etcd.EtcdOn;
import org.junit.jupiter.api.condition.EnabledIf;

/** The list semantics, every case of them, with the objects in etcd and the lists served from the watch cache. */
@QuarkusTest
@TestProfile(EtcdOn.class)
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
class ListSemanticsOnEtcdTest extends ListSemanticsTest {
}
