package io.watchgate.tls;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When the API port serves HTTPS, decided from configuration before anything starts. */
class ApiTlsTest {

    private static boolean applies(Map<String, String> config) {
        return ApiTls.applies(name -> Optional.ofNullable(config.get(name)));
    }

    @Test
    void withCertificateFilesAlways() {
        assertTrue(applies(Map.of("watchgate.storage.mode", "memory", "watchgate.tls.cert-file", "/tls/tls.crt",
                "watchgate.tls.key-file", "/tls/tls.key")));
    }

    @Test
    void inDurableModeUnlessTheBootstrapIsOff() {
        assertTrue(applies(Map.of()), "durable is the default mode");
        assertTrue(applies(Map.of("watchgate.storage.mode", "DURABLE")));
        assertFalse(applies(Map.of("watchgate.storage.mode", "durable", "watchgate.tls.bootstrap", "false")));
    }

    @Test
    void neverInMemoryModeWithoutFiles() {
        assertFalse(applies(Map.of("watchgate.storage.mode", "memory")));
    }
}
