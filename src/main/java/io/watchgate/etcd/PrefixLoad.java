package io.watchgate.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.OptionsUtil;
import io.grpc.Status;
import io.watchgate.store.StoredObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Reads every object under the prefix at one revision: what a cache is loaded with, at start and to relist. */
final class PrefixLoad {

    /** Keys read per request: etcd answers each in one message, of up to this many objects. */
    private static final int PAGE = 100;

    private final Client client;
    private final EtcdKeys keys;
    private final WatchEvents events;
    private final EtcdHealth health;

    PrefixLoad(Client client, EtcdKeys keys, WatchEvents events, EtcdHealth health) {
        this.client = client;
        this.keys = keys;
        this.events = events;
        this.health = health;
    }

    /** The objects live at {@code revision}, in key order. */
    record Snapshot(long revision, List<StoredObject> objects) {
    }

    /** Every key under the prefix at one revision (the first page's), a page at a time. */
    Snapshot load(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        ByteSequence end = OptionsUtil.prefixEndOf(keys.range());
        ByteSequence from = keys.range();
        long revision = 0;
        List<StoredObject> objects = new ArrayList<>();
        while (true) {
            GetOption.Builder page = GetOption.builder().withRange(end).withLimit(PAGE)
                    .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.ASCEND);
            if (revision != 0) {
                page.withRevision(revision); // every page at the first one's revision: one snapshot
            }
            GetResponse response = await(client.getKVClient().get(from, page.build()), deadline);
            health.reached();
            if (revision == 0) {
                revision = response.getHeader().getRevision();
            }
            List<KeyValue> kvs = response.getKvs();
            for (KeyValue kv : kvs) {
                StoredObject object = events.decode(kv);
                if (object != null) {
                    objects.add(object);
                }
            }
            if (!response.isMore() || kvs.isEmpty()) {
                return new Snapshot(revision, objects);
            }
            from = kvs.get(kvs.size() - 1).getKey().concat(ByteSequence.from(new byte[] {0}));
        }
    }

    private static <T> T await(CompletableFuture<T> request, long deadline) {
        try {
            return request.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnavailable("interrupted while reading from etcd", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new EtcdUnavailable("could not read the store from etcd: " + cause + signInHint(cause), cause);
        }
    }

    /** What an operator should look at when etcd refused who this replica is (its user, or what it may read). */
    private static String signInHint(Throwable failure) {
        Status.Code code = EtcdErrors.codeOf(failure);
        if (code == Status.Code.UNAUTHENTICATED
                || code == Status.Code.INVALID_ARGUMENT && String.valueOf(failure).contains("user name is empty")) {
            return " (etcd checks users: watchgate.storage.etcd.username and password must name one of its users)";
        }
        if (code == Status.Code.PERMISSION_DENIED) {
            return " (etcd's user for this replica needs read and write on every key under the prefix)";
        }
        return "";
    }

}
