package io.watchgate.types;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How a type whose objects another type's storage holds converts them, as kube-apiserver serves one stored object
 * at each of its API's versions: every read converts the stored object to the version asked, every write converts
 * the object written back to the stored one. Both conversions copy; neither changes what it is given.
 */
public interface SharedStorage {

    /** The group-qualified plural of the type whose storage holds the objects. */
    String resource();

    /** A stored object, as this type shows it. */
    ObjectNode shown(ObjectNode stored);

    /** An object of this type, as the store keeps it. */
    ObjectNode stored(ObjectNode shown);
}
