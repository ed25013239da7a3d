package io.watchgate.types;

/**
 * The subresources a type serves beside its objects.
 *
 * @param status whether {@code /status} is served: its writes alone change an object's {@code status}, and writes
 *               of the object leave the stored status as it is
 * @param scale  whether {@code /scale} is served: an autoscaling/v1 Scale of the object's {@code spec.replicas},
 *               {@code status.replicas} and selector
 */
public record Subresources(boolean status, boolean scale) {

    public static final Subresources NONE = new Subresources(false, false);
    public static final Subresources STATUS = new Subresources(true, false);
    public static final Subresources STATUS_AND_SCALE = new Subresources(true, true);
}
