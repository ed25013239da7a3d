package io.watchgate.garbagecollector;

/** What the collector makes of one owner reference, as kube-controller-manager's collector classifies it. */
enum OwnerState {
    /** The owner is there (even if it is being deleted for another reason): the dependent stays. */
    SOLID,
    /** No object of that kind and name, or one with another uid: the reference holds nothing. */
    DANGLING,
    /** The owner is being deleted in the foreground: it waits for its dependents to go first. */
    WAITING,
    /** A kind the server does not serve (yet: its definition may come): judged again later, never acted on. */
    UNKNOWN_KIND,
    /** A namespaced kind, named by a cluster-scoped object: it can never be resolved, so the object is never collected. */
    OUT_OF_SCOPE
}
