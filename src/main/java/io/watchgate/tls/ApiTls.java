package io.watchgate.tls;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Whether the API port serves HTTPS, decided from configuration alone before anything starts: with a certificate
 * file, or in durable mode with the bootstrap on. When it does, the HTTP server takes the TLS configuration
 * {@value #NAME} ({@link ServingCertificate}, {@link ClientCertificateAuthority}) by name, leaving Quarkus' default
 * one empty: the management interface, which would take the default, stays plain HTTP for probes and scrapers.
 */
public class ApiTls implements ConfigSourceFactory {

    /** The TLS configuration of the API port in Quarkus' TLS registry. */
    public static final String NAME = "watchgate-api";

    /** Below application.properties and the environment: an explicit setting wins. */
    private static final int ORDINAL = 50;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        Function<String, Optional<String>> config = name -> Optional.ofNullable(context.getValue(name))
                .map(ConfigValue::getValue).filter(value -> !value.isBlank());
        if (!applies(config)) {
            return List.of();
        }
        return List.of(new PropertiesConfigSource(Map.of("quarkus.http.tls-configuration-name", NAME),
                "watchgate-api-tls", ORDINAL));
    }

    /** Whether HTTPS serves a certificate, by the same keys (and defaults) as {@link TlsConfig} and the storage's. */
    static boolean applies(Function<String, Optional<String>> config) {
        if (config.apply("watchgate.tls.cert-file").isPresent() || config.apply("watchgate.tls.key-file").isPresent()) {
            return true;
        }
        return config.apply("watchgate.storage.mode").orElse("durable").equalsIgnoreCase("durable")
                && config.apply("watchgate.tls.bootstrap").orElse("true").equalsIgnoreCase("true");
    }
}
