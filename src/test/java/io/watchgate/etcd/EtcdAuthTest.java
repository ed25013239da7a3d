package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcd.jetcd.Auth;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * An etcd with authentication on: a replica signs in with the user it is configured with, and needs no more than
 * read and write on its prefix (the revision marker is under it too); without a user, with a wrong password or as a
 * user that may not read the prefix, it does not start, and says what to look at.
 */
class EtcdAuthTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aReplicaSignsInAsAUserAllowedOnlyItsPrefix() throws Exception {
        try (EtcdServer etcd = EtcdServer.start()) {
            try (Client admin = Client.builder().endpoints(etcd.endpoint()).build()) {
                Auth auth = admin.getAuthClient();
                // etcd turns authentication on only with a root user in the root role
                auth.userAdd(bytes("root"), bytes("root-secret")).get();
                auth.userGrantRole(bytes("root"), bytes("root")).get();
                auth.roleAdd(bytes("gateway")).get();
                auth.roleGrantPermission(bytes("gateway"), bytes("/registry/"), bytes("/registry0"),
                        Permission.Type.READWRITE).get();
                auth.userAdd(bytes("watchgate"), bytes("gateway-secret")).get();
                auth.userGrantRole(bytes("watchgate"), bytes("gateway")).get();
                auth.roleAdd(bytes("elsewhere")).get();
                auth.roleGrantPermission(bytes("elsewhere"), bytes("/elsewhere/"), bytes("/elsewhere0"),
                        Permission.Type.READWRITE).get();
                auth.userAdd(bytes("stranger"), bytes("stranger-secret")).get();
                auth.userGrantRole(bytes("stranger"), bytes("elsewhere")).get();
                auth.authEnable().get();
            }
            TestEtcdConfig anonymous = TestEtcdConfig.of(etcd).withStartTimeout(Duration.ofSeconds(5));
            try (EtcdStore store = open(anonymous.withUser("watchgate", "gateway-secret"))) {
                ObjectKey key = new ObjectKey("configmaps", "demo", "signed-in");
                ObjectNode object = MAPPER.createObjectNode();
                object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
                ChangeEvent written = Commits.commit(store, Mutation.create(key, object));
                assertEquals(written.revision(), store.get(key, store.currentRevision()).revision());
                assertTrue(store.consistentRevision().get() >= written.revision(),
                        "etcd's revision is read under the prefix, which the user may read");
            }
            EtcdUnavailable notSignedIn = assertThrows(EtcdUnavailable.class, () -> open(anonymous),
                    "etcd refuses a client that did not sign in; the start says so");
            EtcdUnavailable wrongPassword = assertThrows(EtcdUnavailable.class,
                    () -> open(anonymous.withUser("watchgate", "wrong")), "a wrong password is refused");
            assertTrue(notSignedIn.getMessage().contains("watchgate.storage.etcd.username"),
                    notSignedIn.getMessage());
            assertTrue(wrongPassword.getMessage().contains("watchgate.storage.etcd.username"),
                    wrongPassword.getMessage());
            EtcdUnavailable notAllowed = assertThrows(EtcdUnavailable.class,
                    () -> open(anonymous.withUser("stranger", "stranger-secret")),
                    "a user that may not read the prefix is refused");
            assertTrue(notAllowed.getMessage().contains("read and write on every key under the prefix"),
                    notAllowed.getMessage());
        }
    }

    private static EtcdStore open(TestEtcdConfig config) {
        return EtcdStorage.open(config, MAPPER, 100, Long.MAX_VALUE, Clock.systemUTC(), MemoryBudget.unbounded(),
                ForkJoinPool.commonPool());
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
