package io.watchgate.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.Mutation;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import io.watchgate.store.WatchCache;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One mutation as one etcd transaction, as kube-apiserver's etcd3 store writes: a create on the key's create
 * revision being 0, an update or a delete on its mod revision, each guard on its key's mod revision, and, when a
 * compare fails, the keys read back in the same transaction to say which. The write's answer waits until this
 * replica's cache holds it (so that the writer reads its own write here; past the timeout it is answered all the
 * same, being made), and a refusal until the cache holds what refused it (so that a retry computes from that).
 * Answers complete on the writer's own event loop when it wrote from one (as a handler on the loop would have
 * run, and with no thread between etcd's answer and the client's), else on {@code completions}; never on etcd's
 * threads, the feed's or a timer's.
 */
final class Transactions {

    private static final GetOption REVISIONS_ONLY = GetOption.builder().withKeysOnly(true).build();

    private final KV kv;
    private final EtcdKeys keys;
    private final StoredValues values;
    private final WatchCache cache;
    private final RevisionSync sync;
    private final Clock clock;
    private final Duration timeout;
    /** Where the futures of writers not on an event loop complete: not etcd's threads, which deliver the watch. */
    private final Executor completions;
    private final EtcdHealth health;

    Transactions(KV kv, EtcdKeys keys, StoredValues values, WatchCache cache, RevisionSync sync, Clock clock,
            Duration timeout, Executor completions, EtcdHealth health) {
        this.kv = kv;
        this.keys = keys;
        this.values = values;
        this.cache = cache;
        this.sync = sync;
        this.clock = clock;
        this.timeout = timeout;
        this.completions = completions;
        this.health = health;
    }

    /**
     * Commits {@code mutation} in etcd.
     *
     * @param current the key's state as this replica last saw it, which the mutation was checked against
     * @param value   the object's value in etcd (null for a delete)
     */
    CompletableFuture<ChangeEvent> commit(Mutation mutation, StoredObject current, byte[] value) {
        ByteSequence key = keys.of(mutation.key());
        List<Cmp> compares = new ArrayList<>();
        List<Op> reads = new ArrayList<>();
        compares.add(switch (mutation.op()) {
            case CREATE -> new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0));
            case UPDATE, DELETE -> mutation.expectedRevision() != 0
                    ? new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(mutation.expectedRevision()))
                    : new Cmp(key, Cmp.Op.GREATER, CmpTarget.createRevision(0));
        });
        reads.add(Op.get(key, REVISIONS_ONLY));
        for (Mutation.Guard guard : mutation.guards()) {
            ByteSequence guardKey = keys.of(guard.key());
            compares.add(new Cmp(guardKey, Cmp.Op.EQUAL, CmpTarget.modRevision(guard.revision())));
            reads.add(Op.get(guardKey, REVISIONS_ONLY));
        }
        Op write = mutation.op() == Mutation.Op.DELETE ? Op.delete(key, DeleteOption.DEFAULT)
                : Op.put(key, ByteSequence.from(value), PutOption.DEFAULT);
        CompletableFuture<ChangeEvent> answer = new CompletableFuture<>();
        Executor replies = repliesFor();
        // what runs on etcd's thread only registers what to wait for: the answer itself completes on replies
        kv.txn().If(compares.toArray(Cmp[]::new)).Then(write).Else(reads.toArray(Op[]::new)).commit()
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((response, failure) -> {
                    if (failure != null) {
                        StoreException refusal = notTaken(failure);
                        replies.execute(() -> answer.completeExceptionally(refusal));
                        return;
                    }
                    health.reached();
                    long revision = response.getHeader().getRevision();
                    if (response.isSucceeded()) {
                        // the write's own event is on its way through the watch
                        cache.awaitRevision(revision).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                                .whenCompleteAsync((reached, late) -> complete(answer,
                                        () -> committed(mutation, current, revision)), replies);
                    } else {
                        // what refused it may be a revision with no event of the store's: have the cache reach it
                        sync.await(revision).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                                .whenCompleteAsync((reached, late) -> complete(answer,
                                        () -> { throw refused(mutation, response); }), replies);
                    }
                });
        return answer;
    }

    /** The calling writer's event loop, if it is on one; else {@link #completions}. */
    private Executor repliesFor() {
        Context context = Vertx.currentContext();
        if (context != null && context.isEventLoopContext()) {
            return task -> context.runOnContext(done -> task.run());
        }
        return completions;
    }

    private static void complete(CompletableFuture<ChangeEvent> answer, Supplier<ChangeEvent> outcome) {
        try {
            answer.complete(outcome.get());
        } catch (RuntimeException e) {
            answer.completeExceptionally(e);
        }
    }

    /**
     * Why a write has no answer from etcd: no answer in time (it may have been made: 504, as kube-apiserver's
     * timeout); a value over etcd's request limit (413: the client's object, not etcd's health); etcd not reached
     * (503, and etcd counts as down until it answers); or another refusal of etcd's (503).
     */
    private StoreException notTaken(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof TimeoutException) {
            // slow is not gone: the probe says whether etcd answers
            return new StoreException.Uncertain("etcd did not answer within " + timeout.toMillis() + " ms: the "
                    + "write may or may not have been made");
        }
        Status.Code code = EtcdErrors.codeOf(failure);
        String message = String.valueOf(root.getMessage());
        // etcd refuses a request over --max-request-bytes itself, and its gRPC server one over that plus 0.5 MiB
        if (code == Status.Code.INVALID_ARGUMENT && message.contains("request is too large")
                || code == Status.Code.RESOURCE_EXHAUSTED && message.contains("larger than max")) {
            return new StoreException.TooLarge("the object is larger than etcd takes in one request (etcd's "
                    + "--max-request-bytes)");
        }
        if (code == Status.Code.UNAVAILABLE) {
            health.unreachable(failure);
        }
        return new StoreException.Unavailable("etcd did not take the write: " + message);
    }

    /** The write's event as the cache installed it; built here only if the cache no longer holds it. */
    private ChangeEvent committed(Mutation mutation, StoredObject current, long revision) {
        ChangeEvent installed = cache.eventAt(revision);
        if (installed != null && installed.key().equals(mutation.key())) {
            return installed;
        }
        if (mutation.op() == Mutation.Op.DELETE) {
            return new ChangeEvent(revision, EventType.DELETED,
                    values.at(mutation.key(), current.tree().deepCopy(), revision), current, clock.millis());
        }
        return new ChangeEvent(revision, current == null ? EventType.ADDED : EventType.MODIFIED,
                values.at(mutation.key(), mutation.object(), revision), current, clock.millis());
    }

    /** Why etcd refused: what the transaction read back, in the order of its compares. */
    private StoreException refused(Mutation mutation, TxnResponse response) {
        List<KeyValue> found = response.getGetResponses().get(0).getKvs();
        KeyValue stored = found.isEmpty() ? null : found.get(0);
        switch (mutation.op()) {
            case CREATE -> {
                if (stored != null) {
                    return new StoreException.KeyExists(mutation.key());
                }
            }
            case UPDATE, DELETE -> {
                if (stored == null) {
                    return new StoreException.KeyNotFound(mutation.key());
                }
                if (mutation.expectedRevision() != 0 && stored.getModRevision() != mutation.expectedRevision()) {
                    StoredObject now = cache.newest(mutation.key());
                    return now == null ? new StoreException.KeyNotFound(mutation.key())
                            : new StoreException.RevisionConflict(now);
                }
            }
        }
        for (int i = 0; i < mutation.guards().size(); i++) {
            List<KeyValue> guard = response.getGetResponses().get(i + 1).getKvs();
            if (guard.isEmpty() || guard.get(0).getModRevision() != mutation.guards().get(i).revision()) {
                return new StoreException.GuardChanged(mutation.guards().get(i).key());
            }
        }
        // not expected: the reads are of the revision the compares failed at; say conflict, and the writer retries
        StoredObject now = cache.newest(mutation.key());
        return now == null ? new StoreException.KeyNotFound(mutation.key()) : new StoreException.RevisionConflict(now);
    }
}
