package io.watchgate.workloads;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * apps/v1 and batch/v1 workloads, stored as kube-apiserver stores them: its defaults, its first checks, a status
 * written only through the status subresource, kubectl's columns. No controller acts on them.
 */
@QuarkusTest
class WorkloadsTest {

    private static String deployments(String ns) {
        return "/apis/apps/v1/namespaces/" + ns + "/deployments";
    }

    /** What {@code kubectl create deployment web --image=nginx} sends. */
    private static final String WEB = """
            {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","labels":{"app":"web"}},
             "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
               "template":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"nginx","image":"nginx","resources":{}}]}},
               "strategy":{}},
             "status":{}}""";

    @Test
    void aDeploymentIsStoredWithKubesDefaultsAndAnEmptyStatus() {
        String ns = newNamespace("deploy-defaults");
        given().contentType(ContentType.JSON).body(WEB).post(deployments(ns)).then().statusCode(201)
                .body("metadata.generation", equalTo(1))
                .body("spec.strategy.type", equalTo("RollingUpdate"))
                .body("spec.strategy.rollingUpdate.maxUnavailable", equalTo("25%"))
                .body("spec.strategy.rollingUpdate.maxSurge", equalTo("25%"))
                .body("spec.revisionHistoryLimit", equalTo(10))
                .body("spec.progressDeadlineSeconds", equalTo(600))
                .body("spec.template.spec.restartPolicy", equalTo("Always"))
                .body("spec.template.spec.dnsPolicy", equalTo("ClusterFirst"))
                .body("spec.template.spec.schedulerName", equalTo("default-scheduler"))
                .body("spec.template.spec.terminationGracePeriodSeconds", equalTo(30))
                .body("spec.template.spec.containers[0].imagePullPolicy", equalTo("Always")) // no tag: latest
                .body("spec.template.spec.containers[0].terminationMessagePath", equalTo("/dev/termination-log"))
                .body("spec.template.spec.containers[0].terminationMessagePolicy", equalTo("File"))
                .body("status", equalTo(Map.of()));
    }

    @Test
    void itsStatusIsWrittenThroughTheStatusSubresourceAloneAndOnlySpecChangesCountAsGenerations() {
        String ns = newNamespace("deploy-status");
        given().contentType(ContentType.JSON).body(WEB).post(deployments(ns)).then().statusCode(201);
        String web = deployments(ns) + "/web";
        given().contentType("application/merge-patch+json").body("{\"status\":{\"readyReplicas\":1,\"replicas\":1}}")
                .patch(web).then().statusCode(200).body("status", equalTo(Map.of()));
        given().contentType("application/merge-patch+json")
                .body("{\"spec\":{\"replicas\":5},\"status\":{\"readyReplicas\":1,\"replicas\":1}}")
                .patch(web + "/status").then().statusCode(200)
                .body("spec.replicas", equalTo(1)).body("status.readyReplicas", equalTo(1))
                .body("metadata.generation", equalTo(1));
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"replicas\":3}}").patch(web)
                .then().statusCode(200).body("metadata.generation", equalTo(2)).body("status.readyReplicas", equalTo(1));
        given().accept("application/json;as=Table;v=v1;g=meta.k8s.io").get(deployments(ns)).then().statusCode(200)
                .body("columnDefinitions.name", equalTo(List.of("Name", "Ready", "Up-to-date", "Available", "Age",
                        "Containers", "Images", "Selector")))
                .body("rows[0].cells[1]", equalTo("1/3"))
                .body("rows[0].cells[7]", equalTo("app=web"));
    }

    @Test
    void aSelectorMustSelectTheTemplatesLabelsAndNeverChange() {
        String ns = newNamespace("deploy-invalid");
        given().contentType(ContentType.JSON).body(WEB.replace("\"matchLabels\":{\"app\":\"web\"}",
                "\"matchLabels\":{\"app\":\"db\"}")).post(deployments(ns)).then().statusCode(422)
                .body("details.causes.field", hasItem("spec.template.metadata.labels"))
                .body("details.causes.message", hasItem(containsString("`selector` does not match template `labels`")));
        given().contentType(ContentType.JSON).body(WEB.replace("\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\","
                + "\"resources\":{}}]", "\"containers\":[],\"restartPolicy\":\"Never\"")).post(deployments(ns))
                .then().statusCode(422)
                .body("details.causes.field", hasItem("spec.template.spec.containers"))
                .body("details.causes.message", hasItem(
                        "Unsupported value: \"Never\": supported values: \"Always\""));
        given().contentType(ContentType.JSON).body(WEB).post(deployments(ns)).then().statusCode(201);
        given().contentType("application/merge-patch+json")
                .body("{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\",\"tier\":\"front\"}},"
                        + "\"template\":{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}}}")
                .patch(deployments(ns) + "/web").then().statusCode(422)
                .body("details.causes.message", hasItem(containsString("field is immutable")));
    }

    @Test
    void aFieldOfTheWrongTypeIsABadRequestNotAServerError() {
        String ns = newNamespace("deploy-types");
        for (String strategy : new String[] { "\"x\"", "[]", "{\"rollingUpdate\":5}" }) {
            given().contentType(ContentType.JSON).body(WEB.replace("\"strategy\":{}", "\"strategy\":" + strategy))
                    .post(deployments(ns)).then().statusCode(400).body("reason", equalTo("BadRequest"));
        }
        given().get(deployments(ns)).then().statusCode(200).body("items", equalTo(List.of()));
    }

    @Test
    void aStatusWriteKeepsTheSpecButTakesTheAnnotations() {
        String ns = newNamespace("deploy-status-meta");
        given().contentType(ContentType.JSON).body(WEB).post(deployments(ns)).then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"metadata\":{\"annotations\":{\"seen\":\"yes\"},"
                + "\"labels\":{\"app\":\"other\"}},\"spec\":{\"replicas\":4},\"status\":{\"replicas\":1}}")
                .patch(deployments(ns) + "/web/status").then().statusCode(200)
                .body("metadata.annotations.seen", equalTo("yes"))
                .body("metadata.labels.app", equalTo("web")) // a Deployment's labels stay, as kube's strategy keeps them
                .body("spec.replicas", equalTo(1)).body("status.replicas", equalTo(1));
    }

    @Test
    void itsScaleIsItsReplicasAsAnAutoscalingScale() {
        String ns = newNamespace("deploy-scale");
        String uid = given().contentType(ContentType.JSON).body(WEB).post(deployments(ns)).then().statusCode(201)
                .extract().path("metadata.uid");
        String scale = deployments(ns) + "/web/scale";
        String version = given().get(scale).then().statusCode(200)
                .body("kind", equalTo("Scale")).body("apiVersion", equalTo("autoscaling/v1"))
                .body("metadata.name", equalTo("web")).body("metadata.uid", equalTo(uid))
                .body("spec.replicas", equalTo(1)).body("status.replicas", equalTo(0))
                .body("status.selector", equalTo("app=web"))
                .extract().path("metadata.resourceVersion");
        // as kubectl scale sends it
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"replicas\":3}}").patch(scale)
                .then().statusCode(200).body("spec.replicas", equalTo(3));
        given().get(deployments(ns) + "/web").then().body("spec.replicas", equalTo(3))
                .body("metadata.generation", equalTo(2));
        given().contentType(ContentType.JSON).body("{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\","
                + "\"metadata\":{\"name\":\"web\",\"resourceVersion\":\"" + version + "\"},\"spec\":{\"replicas\":5}}")
                .put(scale).then().statusCode(409);
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":-1}}")
                .put(scale).then().statusCode(422)
                .body("message", containsString("spec.replicas: Invalid value: -1: must be greater than or equal to 0"));
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"web\"},\"spec\":{}}").put(scale)
                .then().statusCode(200).body("spec", equalTo(Map.of())); // scaled to zero
        given().get("/apis/apps/v1/namespaces/" + ns + "/daemonsets/any/scale").then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"spec\":{\"replicas\":2}}").put(scale).then().statusCode(400)
                .body("message", containsString("does not match the name on the URL"));
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2.5}}")
                .put(scale).then().statusCode(400);
        given().get("/apis/apps/v1").then().statusCode(200)
                .body("resources.name", hasItem("deployments/scale"))
                .body("resources.find { it.name == 'deployments/scale' }.kind", equalTo("Scale"))
                .body("resources.name", org.hamcrest.Matchers.not(hasItem("daemonsets/scale")));
    }

    @Test
    void aJobSelectsItsPodsByItsUidAndMustNotRestartThemAlways() {
        String ns = newNamespace("jobs");
        String jobs = "/apis/batch/v1/namespaces/" + ns + "/jobs";
        String job = "{\"kind\":\"Job\",\"apiVersion\":\"batch/v1\",\"metadata\":{\"name\":\"pi\"},\"spec\":{\"template\":"
                + "{\"metadata\":{},\"spec\":{\"containers\":[{\"name\":\"pi\",\"image\":\"perl:5.34\"}],"
                + "\"restartPolicy\":\"Never\"}}}}";
        String uid = given().contentType(ContentType.JSON).body(job).post(jobs).then().statusCode(201)
                .body("spec.completions", equalTo(1)).body("spec.parallelism", equalTo(1))
                .body("spec.backoffLimit", equalTo(6)).body("spec.completionMode", equalTo("NonIndexed"))
                .body("spec.template.spec.containers[0].imagePullPolicy", equalTo("IfNotPresent"))
                .extract().path("metadata.uid");
        given().get(jobs + "/pi").then().statusCode(200)
                .body("spec.selector.matchLabels", equalTo(Map.of("batch.kubernetes.io/controller-uid", uid)))
                .body("spec.template.metadata.labels.job-name", equalTo("pi"))
                .body("metadata.labels.'batch.kubernetes.io/job-name'", equalTo("pi"));
        given().contentType(ContentType.JSON).body(job.replace("pi\"},", "again\"},").replace("Never", "Always"))
                .post(jobs).then().statusCode(422)
                .body("details.causes.field", hasItem("spec.template.spec.restartPolicy"));
        given().get(jobs + "/again").then().statusCode(404).body("details.name", equalTo("again"))
                .body("details.causes", nullValue());
        // a Job that does not choose its selector cannot take up another Job's pods
        given().contentType(ContentType.JSON).body(job.replace("pi\"},", "thief\"},").replace("\"template\":",
                "\"selector\":{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"" + uid + "\"}},"
                        + "\"template\":").replace("\"metadata\":{},", "\"metadata\":{\"labels\":{"
                        + "\"batch.kubernetes.io/controller-uid\":\"" + uid + "\"}},"))
                .post(jobs).then().statusCode(422)
                .body("details.causes.message", hasItem(containsString("`selector` not auto-generated")));
        // a generated name is the one its labels carry
        String named = given().contentType(ContentType.JSON).body(job.replace("\"name\":\"pi\"},",
                "\"generateName\":\"batch-\"},")).post(jobs).then().statusCode(201)
                .extract().path("metadata.name");
        given().get(jobs + "/" + named).then().statusCode(200)
                .body("spec.template.metadata.labels.job-name", equalTo(named));
        // deleted without a policy, a Job keeps what it made, as kube's Job strategy keeps its pods
        given().delete(jobs + "/pi").then().statusCode(200).body("metadata.finalizers", equalTo(List.of("orphan")));
    }

    @Test
    void theCollectorDeletesAJobOfADeletedCronJobWithWhatItOwns() {
        String ns = newNamespace("cronjob-gc");
        String cronJobs = "/apis/batch/v1/namespaces/" + ns + "/cronjobs";
        String cronJob = given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"nightly\"},"
                + "\"spec\":{\"schedule\":\"0 3 * * *\",\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":{"
                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}],\"restartPolicy\":\"OnFailure\"}}}}}}")
                .post(cronJobs).then().statusCode(201).extract().path("metadata.uid");
        String jobs = "/apis/batch/v1/namespaces/" + ns + "/jobs";
        String job = given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"nightly-1\","
                + "\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"name\":\"nightly\","
                + "\"uid\":\"" + cronJob + "\"}]},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"image\":\"busybox\"}],\"restartPolicy\":\"Never\"}}}}").post(jobs).then().statusCode(201)
                .extract().path("metadata.uid");
        String pods = "/api/v1/namespaces/" + ns + "/configmaps"; // a pod would do as well; any dependent shows it
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"nightly-1-run\",\"ownerReferences\":["
                + "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"nightly-1\",\"uid\":\"" + job + "\"}]}}")
                .post(pods).then().statusCode(201);
        String from = given().get(pods).then().extract().path("metadata.resourceVersion");
        try (io.watchgate.watch.WatchConnection watch = io.watchgate.watch.WatchConnection.open(
                pods + "?watch=true&resourceVersion=" + from)) {
            given().delete(cronJobs + "/nightly").then().statusCode(200);
            com.fasterxml.jackson.databind.JsonNode event = watch.next();
            org.junit.jupiter.api.Assertions.assertEquals("DELETED", io.watchgate.watch.WatchConnection.type(event),
                    "the Job went in the background, and what it owned after it: " + event);
        }
        given().get(jobs + "/nightly-1").then().statusCode(404);
    }
}
