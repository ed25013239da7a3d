package io.watchgate.etcd;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.watch.WatchEvent;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import io.watchgate.store.WatchCache;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * etcd's key-values and watch events as the store's objects and events: the key parsed back, the value decoded and
 * stamped with its mod revision, the type and previous state from what the cache held (so etcd need not send
 * previous values). What names no object, or holds none, is logged and skipped.
 */
final class WatchEvents {

    private static final Logger LOG = Logger.getLogger(WatchEvents.class);

    private final EtcdKeys keys;
    private final StoredValues values;
    private final Clock clock;

    WatchEvents(EtcdKeys keys, StoredValues values, Clock clock) {
        this.keys = keys;
        this.values = values;
        this.clock = clock;
    }

    /** The event {@code event} is to {@code cache}, or null when it is none of its business. */
    ChangeEvent translate(WatchEvent event, WatchCache cache) {
        KeyValue kv = event.getKeyValue();
        ObjectKey key = keys.parse(kv.getKey());
        if (key == null) {
            LOG.warnf("etcd key %s is under the prefix but names no object; it is not served", kv.getKey());
            return null;
        }
        StoredObject previous = cache.newest(key);
        long revision = kv.getModRevision();
        if (event.getEventType() == WatchEvent.EventType.DELETE) {
            if (previous == null) {
                return null;
            }
            StoredObject last = values.at(key, previous.tree().deepCopy(), revision);
            return new ChangeEvent(revision, EventType.DELETED, last, previous, clock.millis());
        }
        if (event.getEventType() != WatchEvent.EventType.PUT) {
            return null;
        }
        StoredObject object = decode(key, kv);
        if (object == null) {
            return null;
        }
        return new ChangeEvent(revision, previous == null ? EventType.ADDED : EventType.MODIFIED, object, previous,
                clock.millis());
    }

    /** The object {@code kv} holds, or null. */
    StoredObject decode(KeyValue kv) {
        if (keys.isMarker(kv.getKey())) {
            return null;
        }
        ObjectKey key = keys.parse(kv.getKey());
        if (key == null) {
            LOG.warnf("etcd key %s is under the prefix but names no object; it is not served", kv.getKey());
            return null;
        }
        return decode(key, kv);
    }

    private StoredObject decode(ObjectKey key, KeyValue kv) {
        try {
            return values.decode(key, kv.getValue().getBytes(), kv.getModRevision());
        } catch (IllegalArgumentException e) {
            LOG.warnf("etcd key %s holds no object (%s); it is not served", kv.getKey(), e.getMessage());
            return null;
        }
    }
}
