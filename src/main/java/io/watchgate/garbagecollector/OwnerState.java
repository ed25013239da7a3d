package io.watchgate.garbagecollector;

/** What the collector makes of one owner reference, as kube-controller-manager's collector classifies it. */
enum OwnerState {
    /** The owner is there (even if it is being deleted for another reason): the dependent stays. */
    SOLID,
    /** No object of that kind and name, or one with another uid: the reference holds nothing. */
    DANGLING,
    /** The owner is being deleted in the foreground: it waits for its dependents to go first. */
    WAITING,
    /**
     * The reference names a kind the server does not serve, or a namespaced owner of a cluster-scoped object: it
     * cannot be judged, so it keeps the dependent, as kube's collector never deletes on such a reference.
     */
    UNRESOLVABLE
}
