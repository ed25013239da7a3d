package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    private record TlsConfig(List<String> endpoints, Optional<String> caFile, Optional<String> certFile,
            Optional<String> keyFile) implements EtcdConfig {
        @Override
        public String prefix() {
            return "/registry";
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
        public Duration requestTimeout() {
            return Duration.ofSeconds(5);
        }

        @Override
        public Duration readinessGrace() {
            return Duration.ofSeconds(10);
        }

        @Override
        public Duration startTimeout() {
            return Duration.ofSeconds(5);
        }
    }

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
            TlsConfig config = new TlsConfig(List.of(etcd.endpoint()), Optional.of(caFile.toString()),
                    Optional.of(clientCert.toString()), Optional.of(clientKey.toString()));
            try (EtcdStore store = EtcdStorage.open(config, MAPPER, 100, Long.MAX_VALUE, Clock.systemUTC(),
                    MemoryBudget.unbounded(), ForkJoinPool.commonPool())) {
                ObjectKey key = new ObjectKey("configmaps", "demo", "over-tls");
                ObjectNode object = MAPPER.createObjectNode();
                object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
                ChangeEvent written = Commits.commit(store, Mutation.create(key, object));
                assertEquals(written.revision(), store.get(key, store.currentRevision()).revision());
            }
            TlsConfig withoutClientCertificate = new TlsConfig(List.of(etcd.endpoint()),
                    Optional.of(caFile.toString()), Optional.empty(), Optional.empty());
            assertThrows(EtcdUnavailable.class, () -> EtcdStorage.open(withoutClientCertificate, MAPPER, 100,
                    Long.MAX_VALUE, Clock.systemUTC(), MemoryBudget.unbounded(), ForkJoinPool.commonPool()),
                    "etcd refuses a client without a certificate; the start says so");
        }
    }
}
