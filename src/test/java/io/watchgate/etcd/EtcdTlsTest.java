package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.tls.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** An etcd that speaks TLS and asks for client certificates: reached with the CA and client files configured. */
class EtcdTlsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aReplicaReachesAnEtcdThatAsksForClientCertificatesWithTheFilesItIsGiven() throws Exception {
        Path dir = Files.createTempDirectory("etcd-tls-");
        TestPki.Issued ca = TestPki.ca("etcd-test-ca");
        TestPki.Issued serving = ca.server("localhost", "127.0.0.1");
        TestPki.Issued client = ca.client("CN=watchgate");
        Path caFile = dir.resolve("ca.crt");
        Path certFile = dir.resolve("etcd.crt");
        Path keyFile = dir.resolve("etcd.key");
        Path clientCert = dir.resolve("client.crt");
        Path clientKey = dir.resolve("client.key");
        ca.writeCertificate(caFile);
        serving.writeCertificate(certFile);
        serving.writeKey(keyFile);
        client.writeCertificate(clientCert);
        client.writeKey(clientKey);
        try (EtcdServer etcd = EtcdServer.startTls(new EtcdServer.Tls(certFile, keyFile, caFile))) {
            TestEtcdConfig plain = TestEtcdConfig.of(etcd).withStartTimeout(Duration.ofSeconds(5));
            TestEtcdConfig config = plain.withTls(caFile.toString(), Optional.of(clientCert.toString()),
                    Optional.of(clientKey.toString()));
            try (EtcdStore store = EtcdStorage.open(config, MAPPER, 100, Long.MAX_VALUE, Clock.systemUTC(),
                    MemoryBudget.unbounded(), ForkJoinPool.commonPool())) {
                ObjectKey key = new ObjectKey("configmaps", "demo", "over-tls");
                ObjectNode object = MAPPER.createObjectNode();
                object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
                ChangeEvent written = Commits.commit(store, Mutation.create(key, object));
                assertEquals(written.revision(), store.get(key, store.currentRevision()).revision());
            }
            TestEtcdConfig withoutClientCertificate = plain.withTls(caFile.toString(), Optional.empty(),
                    Optional.empty());
            assertThrows(EtcdUnavailable.class, () -> EtcdStorage.open(withoutClientCertificate, MAPPER, 100,
                    Long.MAX_VALUE, Clock.systemUTC(), MemoryBudget.unbounded(), ForkJoinPool.commonPool()),
                    "etcd refuses a client without a certificate; the start says so");
        }
    }

    @Test
    void endpointsThatMixPlainAndTlsAreRefusedBeforeAnyIsReached() {
        TestEtcdConfig mixed = new TestEtcdConfig(List.of("http://127.0.0.1:1", "https://127.0.0.1:2"), "/registry",
                Duration.ofSeconds(1));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> EtcdStorage.open(mixed,
                MAPPER, 100, Long.MAX_VALUE, Clock.systemUTC(), MemoryBudget.unbounded(), ForkJoinPool.commonPool()));
        assertTrue(refused.getMessage().contains("mixes http:// and https://"), refused.getMessage());
    }
}
