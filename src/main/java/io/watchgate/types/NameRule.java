package io.watchgate.types;

/** Which syntax a type's object names must follow, as Kubernetes validates them per type. */
public enum NameRule {
    /** Most types: lowercase RFC 1123 subdomain, at most 253 characters. */
    DNS1123_SUBDOMAIN,
    /** Namespaces: lowercase RFC 1123 label, at most 63 characters. */
    DNS1123_LABEL,
    /** Services: RFC 1035 label (starts with a letter), at most 63 characters. */
    DNS1035_LABEL,
    /**
     * RBAC objects: any text that can stand as one segment of a URL path (not "." or "..", no '/' or '%'), so
     * that {@code system:aggregate-to-admin} is a name.
     */
    PATH_SEGMENT
}
