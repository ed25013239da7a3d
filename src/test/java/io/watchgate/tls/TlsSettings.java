package io.watchgate.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** watchgate.tls settings for tests that build the beans by hand. */
public record TlsSettings(Optional<Path> certFile, Optional<Path> keyFile, Optional<Path> clientCaFile,
        Duration reloadPeriod, boolean bootstrap, Optional<List<String>> bootstrapNames) implements TlsConfig {

    /** The packaged defaults: no files, the bootstrap on in durable mode. */
    public static TlsSettings defaults() {
        return new TlsSettings(Optional.empty(), Optional.empty(), Optional.empty(), Duration.ofMinutes(1), true,
                Optional.empty());
    }

    public static TlsSettings off() {
        return new TlsSettings(Optional.empty(), Optional.empty(), Optional.empty(), Duration.ofMinutes(1), false,
                Optional.empty());
    }
}
