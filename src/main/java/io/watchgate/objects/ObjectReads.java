package io.watchgate.objects;

import io.watchgate.status.ApiException;
import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Page;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;

/** get and list, with Kubernetes' resourceVersion semantics and consistent pagination. */
@ApplicationScoped
public class ObjectReads {

    private static final String STALE_CONTINUE = "The provided continue parameter is too old to display a "
            + "consistent list result. You can start a new list without the continue parameter, or use the continue "
            + "token in this response to retrieve the remainder of the results. Continuing with the provided token "
            + "results in an inconsistent list - objects that were created, modified, or deleted between the time "
            + "the first chunk was returned and now may show up in the list.";

    private final Store store;
    private final RevisionWait revisionWait;

    ObjectReads(Store store, RevisionWait revisionWait) {
        this.store = store;
        this.revisionWait = revisionWait;
    }

    /**
     * @param resourceVersion unset: the most recent state; "0": the newest this server holds; x: a state not older
     *                        than x
     */
    public StoredObject get(ResourceType type, String namespace, String name, String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty()) {
            revisionWait.awaitConsistent();
        } else if (!ListOptions.isZero(resourceVersion)) {
            revisionWait.awaitAtLeast(ListOptions.parseRevision(resourceVersion));
        }
        StoredObject object = store.get(key(type, namespace, name), store.currentRevision());
        if (object == null) {
            throw ApiException.notFound(type.group(), type.resource(), name);
        }
        return object;
    }

    /** @param namespace the namespace to list, or null for all namespaces and for cluster-scoped types */
    public ListResult list(ResourceType type, String namespace, ListOptions options) {
        Selection selection = Selection.parse(type, options.labelSelector(), options.fieldSelector());
        KeyRange range = new KeyRange(type.storageResource(), type.namespaced() ? namespace : null);
        String scope = ContinueToken.scopeOf(type.storageResource(), range.namespace());
        ContinueToken token = options.continueToken() == null ? null
                : ContinueToken.decode(options.continueToken(), scope);
        long revision = snapshotRevision(options, token);
        ObjectKey after = token == null ? null : new ObjectKey(type.storageResource(), token.namespace(), token.name());
        int limit = options.limit() > 0 ? (int) Math.min(options.limit(), Integer.MAX_VALUE) : Integer.MAX_VALUE;
        // Like Kubernetes, count what remains only for an unfiltered list. The first page counts (one scan of
        // the range); its token carries the count, so later pages cost only their own items.
        boolean counted = selection.isEverything() && (token == null || token.remaining() != null);
        Page page;
        try {
            page = store.list(range, revision, after, limit, object -> selection.matches(object.tree()),
                    counted && token == null);
        } catch (StoreException.Compacted e) {
            if (token != null) {
                throw ApiException.expired(STALE_CONTINUE,
                        new ContinueToken(scope, ContinueToken.LATEST, token.namespace(), token.name(), null)
                                .encode());
            }
            throw ApiException.expired("too old resource version: " + revision + " (" + e.oldest() + ")");
        } catch (StoreException.FutureRevision e) {
            throw ApiException.tooLargeResourceVersion(revision, store.currentRevision());
        }
        Integer remaining = null;
        if (counted && page.hasMore()) {
            remaining = token == null ? page.remaining() : token.remaining() - page.items().size();
            if (remaining <= 0) {
                remaining = null; // a token that does not fit this snapshot: say nothing rather than something wrong
            }
        }
        String next = null;
        if (page.hasMore()) {
            StoredObject last = page.last();
            next = new ContinueToken(scope, revision, last.key().namespace(), last.key().name(), remaining)
                    .encode();
        }
        return new ListResult(type, revision, page.items(), next, remaining);
    }

    /** Which snapshot a list reads, per the Kubernetes resourceVersion / resourceVersionMatch table. */
    private long snapshotRevision(ListOptions options, ContinueToken token) {
        if (token != null) {
            return token.revision() == ContinueToken.LATEST ? store.currentRevision() : token.revision();
        }
        String rv = options.resourceVersion();
        if (rv == null || rv.isEmpty()) {
            revisionWait.awaitConsistent(); // the most recent state, as kube's consistent reads from cache
            return store.currentRevision();
        }
        if (ListOptions.isZero(rv)) {
            return store.currentRevision();
        }
        long requested = ListOptions.parseRevision(rv);
        boolean exact = ListOptions.EXACT.equals(options.resourceVersionMatch())
                || (options.resourceVersionMatch() == null && options.limit() > 0);
        revisionWait.awaitAtLeast(requested);
        return exact ? requested : store.currentRevision();
    }

    public static ObjectKey key(ResourceType type, String namespace, String name) {
        return new ObjectKey(type.storageResource(), type.namespaced() ? namespace : "", name);
    }
}
