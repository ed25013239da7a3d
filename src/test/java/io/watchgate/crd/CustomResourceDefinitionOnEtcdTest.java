package io.watchgate.crd;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.etcd.EtcdOn;
import org.junit.jupiter.api.condition.EnabledIf;

/** The custom types, every case of them, with definitions and objects in etcd. */
@QuarkusTest
@TestProfile(EtcdOn.class)
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
class CustomResourceDefinitionOnEtcdTest extends CustomResourceDefinitionTest {
}
