package io.watchgate.validation;

import jakarta.validation.Valid;

/** An object of a type with no checks beyond its metadata. */
public record ObjectView(@Valid MetadataView metadata) {
}
