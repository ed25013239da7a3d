package io.watchgate.objects;

import io.smallrye.config.ConfigMapping;
import java.nio.file.Path;
import java.util.Optional;

@ConfigMapping(prefix = "watchgate.seed")
public interface SeedConfig {

    /**
     * A directory of Kubernetes manifests (YAML, several documents to a file, or JSON) whose objects are created
     * at start, those that do not exist yet: seed data for demos and dev mode.
     */
    Optional<Path> dir();
}
