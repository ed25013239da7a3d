package io.watchgate.kubectl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.watchgate.kubectl.KubectlSession.Result;
import io.watchgate.persistence.PackagedApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged server as a user first meets it: started on an empty data directory, it makes a CA and a serving
 * certificate and writes an administrator's kubeconfig trusting them there, and the real kubectl (which sends a token
 * over HTTPS only) works with it right away: who am I, what may I do, roles and bindings made
 * the kubectl way, and a user restricted by them (through {@code --as}, impersonation by the administrator).
 */
class KubectlAccessIT {

    @TempDir
    Path work;

    @Test
    void anAdministratorsKubeconfigIsWrittenAndKubectlWorksWithIt() throws Exception {
        assumeTrue(KubectlSession.KUBECTL.isPresent(), "kubectl not on PATH: .ci/run installs it");
        Path data = work.resolve("data");
        try (PackagedApp app = PackagedApp.start(data, work.resolve("app.log"), "watchgate.auth.anonymous=false",
                "watchgate.auth.authorization-mode=RBAC")) {
            Path kubeconfig = data.resolve("admin.kubeconfig");
            long deadline = System.nanoTime() + 10_000_000_000L; // written once the HTTPS port is known
            while (!Files.exists(kubeconfig) && System.nanoTime() < deadline) {
                Thread.sleep(20); // polled until the deadline: the check itself decides
            }
            assertTrue(Files.exists(kubeconfig), "the admin kubeconfig is written as the server starts");
            assertTrue(Files.readString(kubeconfig).contains("server: \"https://127.0.0.1:"),
                    "kubectl sends a token over TLS only: " + Files.readString(kubeconfig));
            assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(kubeconfig), "it holds a credential: its owner's alone");
            KubectlSession admin = new KubectlSession(work.resolve("admin"), kubeconfig);

            Result whoami = admin.run("auth", "whoami");
            assertEquals(0, whoami.exitCode(), whoami.toString());
            assertLinesMatch(List.of("ATTRIBUTE\\s+VALUE", "Username\\s+system:admin", ">>>>",
                    "Groups\\s+\\[system:masters system:authenticated\\]"), whoami.lines(), whoami.toString());
            assertSays(admin.run("auth", "can-i", "delete", "namespaces"), 0, "yes");
            assertSays(admin.run("create", "namespace", "team"), 0, "namespace/team created");
            assertSays(admin.run("create", "role", "cm-reader", "--verb=get,list,watch", "--resource=configmaps",
                    "-n", "team"), 0, "role.rbac.authorization.k8s.io/cm-reader created");
            assertSays(admin.run("create", "rolebinding", "alice-reads", "--role=cm-reader", "--user=alice", "-n",
                    "team"), 0, "rolebinding.rbac.authorization.k8s.io/alice-reads created");
            assertSays(admin.run("create", "configmap", "settings", "--from-literal=color=blue", "-n", "team"), 0,
                    "configmap/settings created");

            Result allowed = admin.run("--as=alice", "get", "configmaps", "-n", "team", "-o", "name");
            assertEquals(0, allowed.exitCode(), allowed.toString());
            assertEquals(List.of("configmap/settings"), allowed.lines(), allowed.toString());
            Result denied = admin.run("--as=alice", "get", "configmaps", "-n", "default");
            assertEquals(1, denied.exitCode(), denied.toString());
            assertTrue(denied.stderr().contains("Error from server (Forbidden): configmaps is forbidden: User"
                    + " \"alice\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\""),
                    denied.toString());
            assertSays(admin.run("--as=alice", "auth", "can-i", "watch", "configmaps", "-n", "team"), 0, "yes");
            assertSays(admin.run("--as=alice", "auth", "can-i", "create", "configmaps", "-n", "team"), 1, "no");
            Result list = admin.run("--as=alice", "auth", "can-i", "--list", "-n", "team");
            assertEquals(0, list.exitCode(), list.toString());
            assertTrue(list.lines().stream().anyMatch(line -> line.matches("configmaps\\s+\\[\\]\\s+\\[\\]\\s+"
                    + "\\[get list watch\\]")), list.toString());

            Path anonymous = work.resolve("anonymous.kubeconfig");
            Files.writeString(anonymous, Files.readString(kubeconfig).replaceAll("token: .*", "token: wrong"));
            Result stranger = new KubectlSession(work.resolve("stranger"), anonymous).run("get", "namespaces");
            assertEquals(1, stranger.exitCode(), stranger.toString());
            assertTrue(stranger.stderr().contains("You must be logged in to the server"), stranger.toString());
        }
    }

    private static void assertSays(Result result, int exitCode, String line) {
        assertEquals(exitCode, result.exitCode(), result.toString());
        assertEquals(List.of(line), result.lines(), result.toString());
    }
}
