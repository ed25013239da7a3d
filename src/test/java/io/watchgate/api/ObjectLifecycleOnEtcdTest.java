package io.watchgate.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.etcd.EtcdOn;
import org.junit.jupiter.api.condition.EnabledIf;

/** The objects' lifecycle (finalizers, namespaces), every case of it, with the objects in etcd. */
@QuarkusTest
@TestProfile(EtcdOn.class)
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
class ObjectLifecycleOnEtcdTest extends ObjectLifecycleTest {
}
