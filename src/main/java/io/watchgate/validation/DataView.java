package io.watchgate.validation;

import static io.watchgate.validation.IdentifierSyntax.CONFIG_KEY;

import jakarta.validation.Valid;
import java.util.Map;

/**
 * A ConfigMap or Secret: data keys must be config keys, and all data together fits Kubernetes' 1 MiB limit.
 *
 * @param dataBytes the size of every key and (decoded) value of both maps
 */
public record DataView(
        @Valid MetadataView metadata,
        Map<@Identifier(value = CONFIG_KEY, keyInPath = true) String, String> data,
        Map<@Identifier(value = CONFIG_KEY, keyInPath = true) String, String> binaryData,
        @MaxBytes(value = 1048576, field = "[]") long dataBytes) {
}
