package io.watchgate.persistence;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The server in durable mode, as the packaged application runs: its write-ahead log and snapshots in {@link #DATA},
 * and the bootstrap admin's token and kubeconfig written there. Every test of a durable server over HTTP shares
 * this profile, so the server is built and started once for them all.
 */
public class Durable implements QuarkusTestProfile {

    /** The data directory, made for this run. */
    public static final Path DATA = tempDir();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("watchgate.storage.mode", "durable", "watchgate.storage.data-dir", DATA.toString(),
                "watchgate.storage.create-data-dir", "true", "watchgate.auth.bootstrap-admin", "true");
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("wg-durable");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
