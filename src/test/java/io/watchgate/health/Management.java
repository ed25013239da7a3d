package io.watchgate.health;

import io.quarkus.test.common.http.TestHTTPResourceManager;
import java.net.URI;

/** Where the running test application serves its health probes and metrics: the management interface's port. */
public final class Management {

    private Management() {
    }

    /** {@code path}, absolute (such as {@code /q/metrics}), on the management interface. */
    public static String url(String path) {
        // the test URI ends in the management root path (/q): the path replaces it
        return URI.create(TestHTTPResourceManager.getManagementUri()).resolve(path).toString();
    }
}
