package io.watchgate.protobuf;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How Kubernetes writes its two times in JSON, always in UTC: a {@code metav1.Time} to the second (RFC 3339), a
 * {@code metav1.MicroTime} with exactly six fraction digits. Every time the server writes, from a JSON body or a
 * protobuf one, takes this form.
 */
final class MetaTimes {

    static final String TIME_MESSAGE = "k8s.io.apimachinery.pkg.apis.meta.v1.Time";
    static final String MICRO_TIME_MESSAGE = "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime";

    // uuuu, the proleptic year: yyyy (year of era) would write the year 0000 as 0001
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private MetaTimes() {
    }
}
