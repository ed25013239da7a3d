package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import io.watchgate.tls.Https;
import io.watchgate.tls.TestPki;
import io.watchgate.tls.TestTls;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube-apiserver's x509 authentication: a client certificate signed by the client CA is the user of its common name,
 * in the groups of its organizations; it comes before any token; and a certificate from elsewhere ends the handshake.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class ClientCertificateTest {

    @TestHTTPResource(tls = true)
    URL https;

    @Test
    void theCommonNameIsTheUserAndTheOrganizationsAreTheGroups() throws Exception {
        TestPki.Issued carol = TestTls.CLIENT_CA.client("CN=carol,O=team-a,O=team-b");
        JsonNode user = userInfo(Https.to(https, carol).whoami(null));
        assertEquals("carol", user.path("username").asText());
        assertEquals(List.of("team-a", "team-b", "system:authenticated"), texts(user.path("groups")));
        assertEquals("", user.path("uid").asText(), "a certificate names no uid");
    }

    @Test
    void aCertificateComesBeforeTheTokenOfTheSameRequest() throws Exception {
        TestPki.Issued dave = TestTls.CLIENT_CA.client("CN=dave");
        assertEquals("dave", userInfo(Https.to(https, dave).whoami(Users.ALICE.token())).path("username").asText());
    }

    @Test
    void withoutACommonNameTheCertificateNamesNoOneAndTheTokenDecides() throws Exception {
        TestPki.Issued nameless = TestTls.CLIENT_CA.client("O=team-a");
        Https client = Https.to(https, nameless);
        assertEquals("alice", userInfo(client.whoami(Users.ALICE.token())).path("username").asText());
        assertEquals(401, client.whoami(null).statusCode());
    }

    @Test
    void withoutACertificateTheTokenDecides() throws Exception {
        Https client = Https.to(https, null);
        assertEquals("bob", userInfo(client.whoami(Users.BOB.token())).path("username").asText());
        HttpResponse<String> nobody = client.whoami(null);
        assertEquals(401, nobody.statusCode());
        assertEquals("Unauthorized", Https.json(nobody).path("reason").asText());
    }

    @Test
    void aCertificateAnotherCaSignedEndsTheHandshake() throws Exception {
        TestPki.Issued mallory = TestPki.ca("some-other-ca").client("CN=admin,O=system:masters");
        assertThrows(IOException.class, () -> Https.to(https, mallory).whoami(null));
    }

    @Test
    void aCertificateForServersOnlyIsNoClientsIdentity() throws Exception {
        TestPki.Issued server = TestTls.CLIENT_CA.server("carol.example");
        assertThrows(IOException.class, () -> Https.to(https, server).whoami(null));
    }

    private static JsonNode userInfo(HttpResponse<String> review) throws Exception {
        assertEquals(201, review.statusCode(), review.body());
        return Https.json(review).path("status").path("userInfo");
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }
}
