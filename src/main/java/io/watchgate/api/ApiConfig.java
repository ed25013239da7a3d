package io.watchgate.api;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Limits and timings of the resource API. */
@ConfigMapping(prefix = "watchgate.api")
public interface ApiConfig {

    /** Request bodies larger than this are refused with 413 (Kubernetes' default is 3 MiB). */
    @WithDefault("3145728")
    int maxBodyBytes();

    /**
     * A streamed list (1 MiB or more) not sent whole within this time, its client having stopped reading or reading
     * too slowly, is cut off, and the thread writing it freed (kube-apiserver's request timeout is 60 s as well).
     */
    @WithDefault("60s")
    Duration sendTimeout();

    /**
     * A create, update or patch whose body, or whose stored object, is larger than this is computed on a worker
     * thread instead of the event loop that took it (see {@link WritePlacement}).
     */
    @WithDefault("32768")
    long inlineWriteBytes();

    /**
     * Reads (and other requests that change nothing) served at once, watches apart; more get 429 with
     * {@code Retry-After} (kube-apiserver's {@code --max-requests-inflight}, with its default). 0: no limit.
     */
    @WithDefault("400")
    int maxRequestsInflight();

    /** Writes served at once; more get 429 ({@code --max-mutating-requests-inflight}). 0: no limit. */
    @WithDefault("200")
    int maxMutatingRequestsInflight();
}
