package io.watchgate.garbagecollector;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.watchgate.watch.WatchConnection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Garbage collection by {@code metadata.ownerReferences}, as kube-controller-manager's collector does it: what each
 * propagation policy does to an owner and its dependents, as a watch on them shows it, event by event.
 */
@QuarkusTest
class GarbageCollectionTest {

    /** A ConfigMap named {@code name}; returns its uid. */
    private static String create(String ns, String name, String... ownerReferences) {
        return createWith(ns, name, "", ownerReferences);
    }

    private static String createWith(String ns, String name, String extraMetadata, String... ownerReferences) {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\""
                + extraMetadata + ",\"ownerReferences\":[" + String.join(",", ownerReferences) + "]}}";
        return given().contentType(ContentType.JSON).body(body).post(configMaps(ns))
                .then().statusCode(201).extract().path("metadata.uid");
    }

    private static String ownedBy(String name, String uid) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"" + name + "\",\"uid\":\"" + uid + "\"}";
    }

    private static String blockedBy(String name, String uid) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"" + name + "\",\"uid\":\"" + uid + "\","
                + "\"blockOwnerDeletion\":true}";
    }

    private static WatchConnection watch(String ns) {
        String from = given().get(configMaps(ns)).then().statusCode(200).extract().path("metadata.resourceVersion");
        return WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion=" + from);
    }

    private static String delete(String ns, String name, String policy) {
        return given().contentType(ContentType.JSON)
                .body("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"" + policy + "\"}")
                .delete(configMaps(ns) + "/" + name).then().statusCode(200).extract().asString();
    }

    /** Reads events until each of {@code names} has been deleted; returns the names in the order they went. */
    private static List<String> deletions(WatchConnection watch, String... names) {
        Set<String> expected = new HashSet<>(List.of(names));
        List<String> gone = new java.util.ArrayList<>();
        while (!gone.containsAll(expected)) {
            JsonNode event = watch.next();
            if (WatchConnection.type(event).equals("DELETED")) {
                gone.add(WatchConnection.name(event));
            }
        }
        return gone;
    }

    /** The next event about {@code name}, others skipped. */
    private static JsonNode nextAbout(WatchConnection watch, String name) {
        JsonNode event;
        do {
            event = watch.next();
        } while (!WatchConnection.name(event).equals(name));
        return event;
    }

    @Test
    void inTheBackgroundTheOwnerGoesAtOnceAndItsDependentsAndTheirsAfterIt() {
        String ns = newNamespace("gc-background");
        String owner = create(ns, "owner");
        String child = create(ns, "child", ownedBy("owner", owner));
        create(ns, "other-child", ownedBy("owner", owner));
        create(ns, "grandchild", ownedBy("child", child));
        create(ns, "stranger");
        try (WatchConnection watch = watch(ns)) {
            given().delete(configMaps(ns) + "/owner").then().statusCode(200); // Background: the default
            List<String> gone = deletions(watch, "owner", "child", "other-child", "grandchild");
            assertEquals("owner", gone.get(0));
            assertFalse(gone.contains("stranger"));
        }
        given().get(configMaps(ns) + "/stranger").then().statusCode(200);
    }

    @Test
    void inTheForegroundTheOwnerWaitsUntilTheDependentsThatBlockItAreGone() {
        String ns = newNamespace("gc-foreground");
        String owner = create(ns, "owner");
        createWith(ns, "blocking", ",\"finalizers\":[\"example.com/hold\"]", blockedBy("owner", owner));
        create(ns, "free", ownedBy("owner", owner));
        try (WatchConnection watch = watch(ns)) {
            given().contentType(ContentType.JSON).delete(configMaps(ns) + "/owner?propagationPolicy=Foreground")
                    .then().statusCode(200)
                    .body("metadata.finalizers", equalTo(List.of("foregroundDeletion")))
                    .body("metadata.deletionTimestamp", org.hamcrest.Matchers.notNullValue());
            boolean freeGone = false;
            boolean blockingMarked = false;
            while (!freeGone || !blockingMarked) {
                JsonNode event = watch.next();
                String name = WatchConnection.name(event);
                freeGone |= name.equals("free") && WatchConnection.type(event).equals("DELETED");
                // deleted too, but its own finalizer holds it
                blockingMarked |= name.equals("blocking") && WatchConnection.type(event).equals("MODIFIED")
                        && event.path("object").path("metadata").has("deletionTimestamp");
            }
            given().get(configMaps(ns) + "/owner").then().statusCode(200); // and it holds the owner

            given().contentType("application/merge-patch+json").body("{\"metadata\":{\"finalizers\":null}}")
                    .patch(configMaps(ns) + "/blocking").then().statusCode(200);
            assertEquals(List.of("blocking", "owner"), deletions(watch, "blocking", "owner"));
        }
    }

    @Test
    void anOrphanedDependentStaysAndLetsGoOfItsOwnerOnly() {
        String ns = newNamespace("gc-orphan");
        String owner = create(ns, "owner");
        String keeper = create(ns, "keeper");
        create(ns, "dependent", ownedBy("owner", owner), ownedBy("keeper", keeper));
        try (WatchConnection watch = watch(ns)) {
            given().delete(configMaps(ns) + "/owner?propagationPolicy=Orphan").then().statusCode(200)
                    .body("metadata.finalizers", equalTo(List.of("orphan")));
            JsonNode letGo = nextAbout(watch, "dependent");
            assertEquals("MODIFIED", WatchConnection.type(letGo));
            assertEquals(List.of(keeper), uids(letGo));
            // and its creator no longer owns the reference taken off (managedFields say what is there)
            String owned = letGo.path("object").path("metadata").path("managedFields").toString();
            assertTrue(owned.contains(keeper) && !owned.contains(owner), owned);
            assertEquals("DELETED", WatchConnection.type(nextAbout(watch, "owner")));
        }
        given().get(configMaps(ns) + "/dependent").then().statusCode(200);
    }

    @Test
    void aDependentOfSeveralOwnersGoesWithTheLastOfThem() {
        String ns = newNamespace("gc-owners");
        String first = create(ns, "first");
        String second = create(ns, "second");
        create(ns, "shared", ownedBy("first", first), ownedBy("second", second));
        try (WatchConnection watch = watch(ns)) {
            given().delete(configMaps(ns) + "/first").then().statusCode(200);
            JsonNode kept = nextAbout(watch, "shared");
            assertEquals("MODIFIED", WatchConnection.type(kept)); // the reference to the owner gone is taken off
            assertEquals(List.of(second), uids(kept));
            given().delete(configMaps(ns) + "/second").then().statusCode(200);
            assertEquals("DELETED", WatchConnection.type(nextAbout(watch, "shared")));
        }
    }

    @Test
    void aDependentWhoseOwnerNeverExistedOrWasMadeAgainIsCollected() {
        String ns = newNamespace("gc-dangling");
        create(ns, "owner");
        try (WatchConnection watch = watch(ns)) {
            // the owner's name is there, but not the uid named: another object, as if made again since
            create(ns, "misled", ownedBy("owner", "00000000-0000-0000-0000-000000000000"));
            create(ns, "orphan", ownedBy("nobody", "00000000-0000-0000-0000-000000000001"));
            assertEquals(Set.of("misled", "orphan"), new HashSet<>(deletions(watch, "misled", "orphan")));
        }
        given().get(configMaps(ns) + "/owner").then().statusCode(200);
    }

    @Test
    void aSecondDeletionMayTurnABackgroundWaitIntoAForegroundOne() {
        String ns = newNamespace("gc-switch");
        String owner = createWith(ns, "owner", ",\"finalizers\":[\"example.com/hold\"]");
        given().delete(configMaps(ns) + "/owner").then().statusCode(200)
                .body("metadata.finalizers", equalTo(List.of("example.com/hold")));
        given().delete(configMaps(ns) + "/owner?propagationPolicy=Foreground").then().statusCode(200)
                .body("metadata.finalizers", equalTo(List.of("example.com/hold", "foregroundDeletion")));
        given().delete(configMaps(ns) + "/owner?propagationPolicy=Orphan").then().statusCode(200)
                .body("metadata.finalizers", equalTo(List.of("example.com/hold", "orphan")));
        // an update may not add them: only a deletion chooses
        given().contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"finalizers\":[\"example.com/hold\",\"orphan\",\"foregroundDeletion\"]}}")
                .patch(configMaps(ns) + "/owner").then().statusCode(422);
        given().get(configMaps(ns) + "/owner").then().statusCode(200).body("metadata.uid", equalTo(owner));
    }

    @Test
    void ownerReferencesAreCheckedAsKubernetesChecksThem() {
        String ns = newNamespace("gc-invalid");
        String uid = "00000000-0000-0000-0000-000000000002";
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"two\",\"ownerReferences\":["
                + "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"a\",\"uid\":\"" + uid + "\",\"controller\":true},"
                + "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"b\",\"uid\":\"" + uid + "3\",\"controller\":true}]}}")
                .post(configMaps(ns)).then().statusCode(422)
                .body("details.causes.message", hasItem(org.hamcrest.Matchers.containsString(
                        "Only one reference can have Controller set to true. Found \"true\" in references for "
                                + "ReplicaSet/a and ReplicaSet/b")));
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"event\",\"ownerReferences\":["
                + "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"" + uid + "\"}]}}")
                .post(configMaps(ns)).then().statusCode(422)
                .body("details.causes.message", hasItem(org.hamcrest.Matchers.containsString(
                        "/v1, Kind=Event is disallowed from being an owner")));
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"version\",\"ownerReferences\":["
                + "{\"apiVersion\":\"a/b/c\",\"kind\":\"Thing\",\"name\":\"e\",\"uid\":\"" + uid + "\"}]}}")
                .post(configMaps(ns)).then().statusCode(422)
                .body("details.causes.field", hasItem("metadata.ownerReferences[0].apiVersion"));
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"both\","
                + "\"finalizers\":[\"orphan\",\"foregroundDeletion\"]}}")
                .post(configMaps(ns)).then().statusCode(422)
                .body("details.causes.message", hasItem(org.hamcrest.Matchers.containsString(
                        "finalizer orphan and foregroundDeletion cannot be both set")));
        given().get(configMaps(ns)).then().statusCode(200).body("items.size()", equalTo(0));
    }

    @Test
    void aDeletionNamesOnePolicyOnly() {
        String ns = newNamespace("gc-options");
        create(ns, "owner");
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\","
                        + "\"orphanDependents\":false}")
                .delete(configMaps(ns) + "/owner").then().statusCode(422)
                .body("details.causes.message", hasItem(org.hamcrest.Matchers.containsString(
                        "orphanDependents and deletionPropagation cannot be both set")));
        given().delete(configMaps(ns) + "/owner?propagationPolicy=Sideways").then().statusCode(422);
        given().get(configMaps(ns) + "/owner").then().statusCode(200);
        // a typed client names the resource's own version in the body; orphanDependents=true is Orphan
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"orphanDependents\":true}")
                .delete(configMaps(ns) + "/owner").then().statusCode(200)
                .body("metadata.finalizers", equalTo(List.of("orphan")));
    }

    @Test
    void aForegroundDeletionGoesThroughOwnersThatOwnEachOtherOrThemselves() {
        String ns = newNamespace("gc-cycle");
        String first = create(ns, "first");
        String second = create(ns, "second", blockedBy("first", first));
        ownedAlsoBy(ns, "first", blockedBy("second", second));
        String self = create(ns, "self");
        ownedAlsoBy(ns, "self", blockedBy("self", self));
        try (WatchConnection watch = watch(ns)) {
            given().delete(configMaps(ns) + "/first?propagationPolicy=Foreground").then().statusCode(200);
            // the second stops blocking the first, as kube's collector breaks such a cycle; then both go
            assertEquals(Set.of("first", "second"), new HashSet<>(deletions(watch, "first", "second")));
            given().delete(configMaps(ns) + "/self?propagationPolicy=Foreground").then().statusCode(200);
            assertEquals(List.of("self"), deletions(watch, "self"));
        }
    }

    @Test
    void anOwnerInTheForegroundGoesOnceItsLastDependentStopsBlockingIt() {
        String ns = newNamespace("gc-unblock");
        String owner = create(ns, "owner");
        createWith(ns, "held", ",\"finalizers\":[\"example.com/hold\"]", blockedBy("owner", owner));
        try (WatchConnection watch = watch(ns)) {
            given().delete(configMaps(ns) + "/owner?propagationPolicy=Foreground").then().statusCode(200);
            JsonNode marked;
            do {
                marked = nextAbout(watch, "held");
            } while (!marked.path("object").path("metadata").has("deletionTimestamp"));
            // still there, held by its own finalizer: it no longer blocks its owner, which then goes
            given().contentType("application/merge-patch+json").body("{\"metadata\":{\"ownerReferences\":["
                    + ownedBy("owner", owner) + "]}}").patch(configMaps(ns) + "/held").then().statusCode(200);
            assertEquals("DELETED", WatchConnection.type(nextAbout(watch, "owner")));
        }
        given().get(configMaps(ns) + "/held").then().statusCode(200);
    }

    @Test
    void aReferenceFromAnotherNamespaceNeitherHoldsNorBlocksAnOwner() {
        String ns = newNamespace("gc-owner-side");
        String other = newNamespace("gc-other-side");
        String owner = create(ns, "owner");
        createWith(other, "stranger", ",\"finalizers\":[\"example.com/hold\"]", blockedBy("owner", owner));
        try (WatchConnection watch = watch(ns)) {
            given().delete(configMaps(ns) + "/owner?propagationPolicy=Foreground").then().statusCode(200);
            assertEquals(List.of("owner"), deletions(watch, "owner"));
        }
    }

    /** Adds {@code reference} to the owner references of {@code name}. */
    private static void ownedAlsoBy(String ns, String name, String reference) {
        given().contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"ownerReferences\":[" + reference + "]}}")
                .patch(configMaps(ns) + "/" + name).then().statusCode(200);
    }

    private static List<String> uids(JsonNode event) {
        List<String> uids = new java.util.ArrayList<>();
        event.path("object").path("metadata").path("ownerReferences").forEach(r -> uids.add(r.path("uid").asText()));
        return uids;
    }
}
