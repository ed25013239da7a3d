package io.watchgate.rbac;

import static io.restassured.RestAssured.given;
import static io.watchgate.rbac.Rbac.object;
import static io.watchgate.rbac.Rbac.post;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1Rbac;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.api.Api;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** RBAC objects as kubectl sees them: its table columns, protobuf, and their OpenAPI definitions. */
@QuarkusTest
class RbacRepresentationsTest {

    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    @Test
    void rolesAreListedByNameAndCreationTime() {
        String namespace = Api.newNamespace("rbac-table");
        post(Rbac.roles(namespace), object("Role", "pod-reader", "\"rules\":[{\"verbs\":[\"get\"],"
                + "\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]")).then().statusCode(201);
        given().accept(TABLE).get(Rbac.roles(namespace)).then().statusCode(200)
                .body("columnDefinitions.name", contains("Name", "Created At"))
                .body("columnDefinitions.type", contains("string", "date"))
                .body("rows[0].cells[0]", equalTo("pod-reader"))
                .body("rows[0].cells[1]", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
    }

    @Test
    void bindingsShowTheirRoleAndWithWideTheirSubjects() {
        String namespace = Api.newNamespace("rbac-table");
        post(Rbac.roleBindings(namespace), object("RoleBinding", "readers",
                "\"roleRef\":{\"kind\":\"ClusterRole\",\"name\":\"view\"},\"subjects\":["
                        + "{\"kind\":\"User\",\"name\":\"alice\"},{\"kind\":\"User\",\"name\":\"bob\"},"
                        + "{\"kind\":\"Group\",\"name\":\"devs\"},"
                        + "{\"kind\":\"ServiceAccount\",\"name\":\"robot\",\"namespace\":\"ci\"}]"))
                .then().statusCode(201);
        given().accept(TABLE).get(Rbac.roleBindings(namespace)).then().statusCode(200)
                .body("columnDefinitions.name", contains("Name", "Role", "Age", "Users", "Groups",
                        "ServiceAccounts"))
                .body("columnDefinitions.priority", contains(0, 0, 0, 1, 1, 1))
                .body("rows[0].cells", contains(equalTo("readers"), equalTo("ClusterRole/view"),
                        matchesPattern("\\d+s"), equalTo("alice, bob"), equalTo("devs"), equalTo("ci/robot")));
        given().accept(TABLE).get(Rbac.CLUSTER_ROLE_BINDINGS).then().statusCode(200)
                .body("rows.find { it.cells[0] == 'cluster-admin' }.cells[1]", equalTo("ClusterRole/cluster-admin"));
    }

    @Test
    void rbacObjectsSpeakProtobufAsKubeApiserverDoes() throws Exception {
        V1Rbac.ClusterRole role = V1Rbac.ClusterRole.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("test:proto-reader"))
                .addRules(V1Rbac.PolicyRule.newBuilder().addVerbs("get").addApiGroups("").addResources("pods"))
                .build();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(MAGIC);
        Runtime.Unknown.newBuilder().setTypeMeta(Runtime.TypeMeta.newBuilder()
                .setApiVersion("rbac.authorization.k8s.io/v1").setKind("ClusterRole"))
                .setRaw(role.toByteString()).setContentEncoding("").setContentType("").build().writeTo(body);
        given().contentType(PROTOBUF).body(body.toByteArray()).post(Rbac.CLUSTER_ROLES).then().statusCode(201)
                .body("rules[0].resources", contains("pods"));

        byte[] got = given().accept(PROTOBUF).get(Rbac.CLUSTER_ROLES + "/test:proto-reader").then().statusCode(200)
                .contentType(PROTOBUF).extract().asByteArray();
        assertArrayEquals(MAGIC, Arrays.copyOf(got, 4));
        Runtime.Unknown envelope = Runtime.Unknown.parseFrom(Arrays.copyOfRange(got, 4, got.length));
        assertEquals("rbac.authorization.k8s.io/v1", envelope.getTypeMeta().getApiVersion());
        assertEquals("ClusterRole", envelope.getTypeMeta().getKind());
        assertEquals(role.getRulesList(), V1Rbac.ClusterRole.parseFrom(envelope.getRaw()).getRulesList());

        byte[] listed = given().accept(PROTOBUF).get(Rbac.CLUSTER_ROLE_BINDINGS).then().statusCode(200)
                .contentType(PROTOBUF).extract().asByteArray();
        Runtime.Unknown list = Runtime.Unknown.parseFrom(Arrays.copyOfRange(listed, 4, listed.length));
        assertEquals("ClusterRoleBindingList", list.getTypeMeta().getKind());
        V1Rbac.ClusterRoleBindingList bindings = V1Rbac.ClusterRoleBindingList.parseFrom(list.getRaw());
        assertEquals(true, bindings.getItemsList().stream()
                .anyMatch(binding -> binding.getMetadata().getName().equals("cluster-admin")));
    }

    @Test
    void unknownFieldsAreFoundByKubernetesDefinitions() {
        post(Rbac.CLUSTER_ROLES + "?fieldValidation=Strict", object("ClusterRole", "test:strict",
                "\"rules\":[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/x\"],\"verb\":[\"typo\"]}]"))
                .then().statusCode(400)
                .body("message", equalTo("ClusterRole in version \"v1\" cannot be handled as a ClusterRole: strict "
                        + "decoding error: unknown field \"rules[0].verb\""));
        given().get("/openapi/v3/apis/rbac.authorization.k8s.io/v1").then().statusCode(200)
                .body("components.schemas.'io.k8s.api.rbac.v1.PolicyRule'.required", contains("verbs"))
                .body("components.schemas.'io.k8s.api.rbac.v1.ClusterRole'.'x-kubernetes-group-version-kind'"
                        + "[0].kind", equalTo("ClusterRole"));
    }
}
