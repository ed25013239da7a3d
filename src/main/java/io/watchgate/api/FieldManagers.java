package io.watchgate.api;

import io.watchgate.managedfields.ManagerNames;
import io.watchgate.managedfields.Writer;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

/** Whom a write's managedFields entry names: its {@code fieldManager}, else its User-Agent's product. */
final class FieldManagers {

    private FieldManagers() {
    }

    /** @param optionsKind the options the write takes ("CreateOptions", ...), for a refusal of its fieldManager */
    static Writer of(UriInfo uri, HttpHeaders headers, String optionsKind) {
        return new Writer(ManagerNames.of(uri.getQueryParameters().getFirst("fieldManager"),
                headers.getHeaderString(HttpHeaders.USER_AGENT), optionsKind), "");
    }
}
