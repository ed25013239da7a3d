package io.watchgate.authz.rbac;

import static io.watchgate.authz.rbac.Rbac.get;
import static io.watchgate.authz.rbac.Rbac.person;
import static io.watchgate.authz.rbac.Rbac.rule;
import static io.watchgate.authz.rbac.Rbac.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitLog;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The policy follows the store: what a write changes is in force by the time the write is acknowledged. */
class PolicyFeedTest {

    private final UserInfo alice = person("alice");
    private final Attributes readPod = get(alice, "pods", "team", "p");

    @Test
    void aBindingIsInForceWhenItsCreateCompletesAndOutWhenItsDeleteCompletes() {
        Rbac rbac = new Rbac();
        rbac.clusterRole("pod-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        ObjectKey key = new ObjectKey(PolicySnapshot.ROLE_BINDINGS, "team", "alice-pods");
        CompletableFuture<ChangeEvent> created = rbac.store.submit(Mutation.create(key,
                Rbac.bindingObject("RoleBinding", "team", "alice-pods", "ClusterRole", "pod-reader", user("alice"))));
        assertTrue(created.isDone());
        assertTrue(rbac.allows(readPod));
        CompletableFuture<ChangeEvent> deleted = rbac.store.submit(Mutation.delete(key, 0));
        assertTrue(deleted.isDone());
        assertFalse(rbac.allows(readPod));
    }

    @Test
    void inDurableModeABindingIsOutOfForceUntilTheLogSyncsAndInForceWhenTheWriterIsAcknowledged() {
        MemoryStore store = new MemoryStore(new ObjectMapper(), 1000, Long.MAX_VALUE, Clock.systemUTC());
        QueuingLog log = new QueuingLog();
        CommitLog.Sink sink = store.useLog(log);
        Rbac rbac = new Rbac(store, 100);
        CompletableFuture<ChangeEvent> role = store.submit(Mutation.create(
                new ObjectKey(PolicySnapshot.CLUSTER_ROLES, "", "pod-reader"), Rbac.roleObject("ClusterRole", "",
                        "pod-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"))));
        CompletableFuture<ChangeEvent> binding = store.submit(Mutation.create(
                new ObjectKey(PolicySnapshot.CLUSTER_ROLE_BINDINGS, "", "alice-pods"), Rbac.bindingObject(
                        "ClusterRoleBinding", "", "alice-pods", "ClusterRole", "pod-reader", user("alice"))));
        assertFalse(binding.isDone());
        assertFalse(rbac.allows(readPod), "not durable, not in force");
        List<Boolean> inForceWhenAcknowledged = new ArrayList<>();
        binding.thenRun(() -> inForceWhenAcknowledged.add(rbac.allows(readPod)));
        sink.durable(log.drain());
        assertTrue(role.isDone() && binding.isDone());
        assertEquals(List.of(true), inForceWhenAcknowledged);
    }

    @Test
    void startReadsWhatTheStoreHoldsAlready() {
        MemoryStore store = new MemoryStore(new ObjectMapper(), 1000, Long.MAX_VALUE, Clock.systemUTC());
        Rbac writer = new Rbac(store, 100);
        writer.role("team", "pod-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        writer.roleBinding("team", "alice-pods", "Role", "pod-reader", user("alice"));
        writer.feed.stop();
        Rbac later = new Rbac(store, 100);
        assertTrue(later.allows(readPod));
        assertEquals(store.currentRevision(), later.feed.current().snapshot().revision());
    }

    @Test
    void aFeedNotYetStartedReadsThePolicyOnItsFirstUse() {
        MemoryStore store = new MemoryStore(new ObjectMapper(), 1000, Long.MAX_VALUE, Clock.systemUTC());
        Rbac writer = new Rbac(store, 100);
        writer.clusterRole("pod-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        writer.clusterRoleBinding("alice-pods", "pod-reader", user("alice"));
        PolicyFeed unstarted = new PolicyFeed(store, 100);
        assertTrue(new RbacAuthorizer(unstarted).authorize(readPod).allowed());
    }

    @Test
    void changesToARoleAreInForceAtOnce() {
        Rbac rbac = new Rbac();
        rbac.role("team", "r", rule("{'verbs':['list'],'apiGroups':[''],'resources':['pods']}"));
        rbac.roleBinding("team", "b", "Role", "r", user("alice"));
        assertFalse(rbac.allows(readPod));
        rbac.update(PolicySnapshot.ROLES, "team", Rbac.roleObject("Role", "team", "r",
                rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}")));
        assertTrue(rbac.allows(readPod));
        rbac.delete(PolicySnapshot.ROLES, "team", "r");
        assertEquals("RBAC: role.rbac.authorization.k8s.io \"r\" not found",
                rbac.authorizer.authorize(readPod).reason());
    }

    @Test
    void writesOfOtherTypesDoNotChangeThePolicy() {
        Rbac rbac = new Rbac();
        CompiledPolicy before = rbac.feed.current();
        rbac.create("configmaps", "team", Rbac.json("{'metadata':{'name':'c','namespace':'team'}}"));
        assertTrue(before == rbac.feed.current());
    }

    @Test
    void aCommitBetweenTheStartsRevisionAndItsReadIsNotLost() {
        MemoryStore store = new MemoryStore(new ObjectMapper(), 1000, Long.MAX_VALUE, Clock.systemUTC());
        Rbac writer = new Rbac(store, 100);
        writer.clusterRole("pod-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        writer.feed.stop();
        boolean[] raced = {false};
        // the first list made by the start commits a binding first: the start reads at the revision before it
        Store racing = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("list") && !raced[0]) {
                        raced[0] = true;
                        writer.clusterRoleBinding("alice-pods", "pod-reader", user("alice"));
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        PolicyFeed feed = new PolicyFeed(racing, 100);
        feed.start();
        assertTrue(raced[0]);
        assertTrue(new RbacAuthorizer(feed).authorize(readPod).allowed());
        assertEquals(store.currentRevision(), feed.current().snapshot().revision());
    }

    /** Holds what the store hands it until the test says it is durable. */
    private static final class QueuingLog implements CommitLog {
        private final List<ChangeEvent> queued = new ArrayList<>();

        @Override
        public synchronized void append(ChangeEvent event) {
            queued.add(event);
        }

        @Override
        public synchronized void discardQueued() {
            queued.clear();
        }

        synchronized List<ChangeEvent> drain() {
            List<ChangeEvent> drained = List.copyOf(queued);
            queued.clear();
            return drained;
        }
    }
}
