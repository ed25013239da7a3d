package io.watchgate.authz;

/**
 * Decides whether a request may go on (kube-apiserver's {@code authorizer.Authorizer}). Called on an event loop for
 * every request: it must answer from memory.
 */
public interface Authorizer {

    Decision authorize(Attributes attributes);
}
