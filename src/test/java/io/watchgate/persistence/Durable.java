package io.watchgate.persistence;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The server in durable mode, as the packaged application runs: its write-ahead log and snapshots in {@link #DATA},
 * the bootstrap admin's token and kubeconfig written there, and seed manifests created at start ({@link #SEED}). Every
 * test of a durable server over HTTP shares this profile, so the server is built and started once for them all.
 */
public class Durable implements QuarkusTestProfile {

    /** The data directory, made for this run. */
    public static final Path DATA = tempDir();
    /** Manifests the server creates at start (SeedDataTest): a namespace, a ConfigMap and a Secret in it. */
    static final Path SEED = seedDir();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("watchgate.storage.mode", "durable", "watchgate.storage.data-dir", DATA.toString(),
                "watchgate.storage.create-data-dir", "true", "watchgate.auth.bootstrap-admin", "true",
                "watchgate.seed.dir", SEED.toString());
    }

    private static Path seedDir() {
        try {
            Path dir = Files.createTempDirectory("wg-seed");
            // the ConfigMap's file sorts before its namespace's: the namespace is still made first
            Files.writeString(dir.resolve("a-objects.yaml"), """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata:
                      name: first
                      namespace: seeded
                    data:
                      answer: "42"
                    ---
                    apiVersion: v1
                    kind: Secret
                    metadata:
                      name: token
                      namespace: seeded
                    stringData:
                      token: s3cret
                    """);
            Files.writeString(dir.resolve("b-namespace.json"),
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"seeded\"}}");
            Files.writeString(dir.resolve("notes.txt"), "not a manifest: ignored");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("wg-durable");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
