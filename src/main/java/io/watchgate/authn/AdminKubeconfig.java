package io.watchgate.authn;

import io.watchgate.persistence.PrivateFile;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kubeconfig beside the admin token, {@value #FILE_NAME} (mode 0600): one cluster {@code watchgate} at the
 * address the server listens on (trusting the bootstrap CA when HTTPS serves the bootstrap certificate), one user {@code admin} with the token, and the context joining them as the
 * current one, so that {@code kubectl --kubeconfig data/admin.kubeconfig get ns} works as it is.
 */
final class AdminKubeconfig {

    static final String FILE_NAME = "admin.kubeconfig";
    static final String CLUSTER = "watchgate";
    static final String USER = "admin";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private AdminKubeconfig() {
    }

    /** Writes (or rewrites: the port may have changed) the kubeconfig into {@code dataDir}; its path. */
    static Path write(Path dataDir, String server, Optional<byte[]> authority, String token) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        PrivateFile.write(file, YAML.writeValueAsBytes(content(server, authority, token)));
        return file;
    }

    static Map<String, Object> content(String server, Optional<byte[]> authority, String token) {
        Map<String, Object> cluster = new LinkedHashMap<>();
        cluster.put("server", server);
        authority.ifPresent(pem -> cluster.put("certificate-authority-data", Base64.getEncoder().encodeToString(pem)));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("apiVersion", "v1");
        config.put("kind", "Config");
        config.put("clusters", List.of(Map.of("name", CLUSTER, "cluster", cluster)));
        config.put("users", List.of(Map.of("name", USER, "user", Map.of("token", token))));
        config.put("contexts", List.of(Map.of("name", CLUSTER, "context",
                Map.of("cluster", CLUSTER, "user", USER))));
        config.put("current-context", CLUSTER);
        config.put("preferences", Map.of());
        return config;
    }
}
