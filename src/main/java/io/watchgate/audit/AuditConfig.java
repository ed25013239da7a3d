package io.watchgate.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;
import java.util.Set;

/** The audit log: one JSON line per request, kube-apiserver's audit events at level Metadata. */
@ConfigMapping(prefix = "watchgate.audit")
public interface AuditConfig {

    @WithDefault("false")
    boolean enabled();

    /** Where the lines go, as kube-apiserver's {@code --audit-log-path}: a file (appended to), or {@code -}, stdout. */
    @WithDefault("-")
    String logPath();

    /** Only requests of these verbs ({@code get}, {@code list}, {@code watch}, {@code create}, ...); all when unset. */
    Optional<Set<String>> verbs();

    /**
     * Lines waiting to be written may take this many bytes; past it, new events are dropped and counted
     * ({@code watchgate_audit_events_dropped_total}) rather than slow the requests down, as kube's buffered backend.
     */
    @WithDefault("8388608")
    long bufferBytes();
}
