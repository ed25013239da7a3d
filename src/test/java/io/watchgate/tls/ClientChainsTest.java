package io.watchgate.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.Principal;
import java.security.cert.Certificate;
import java.security.cert.TrustAnchor;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import org.junit.jupiter.api.Test;

/**
 * A client certificate is verified at every request, as kube-apiserver does, not only at the handshake of its
 * connection: past its end, or once its CA is out of the client CA file, it names no one on a connection still open.
 */
class ClientChainsTest {

    private static final Instant NOW = Instant.now();

    @Test
    void aChainItsCaSignedVerifiesAndIsRememberedForTheSession() throws Exception {
        TestPki.Issued ca = TestPki.ca("client-ca");
        TestPki.Issued carol = ca.client("CN=carol");
        ClientChains chains = ClientChains.NONE.next(Set.of(new TrustAnchor(ca.certificate(), null)));
        Session session = new Session(carol);
        assertEquals(Optional.of(carol.certificate()), chains.verified(session, NOW));
        assertEquals(1, session.values.size(), "the path check is kept with the session");
        assertEquals(Optional.of(carol.certificate()), chains.verified(session, NOW.plusSeconds(60)));
    }

    @Test
    void pastItsEndOnTheSameConnectionItNamesNoOne() throws Exception {
        TestPki.Issued ca = TestPki.ca("client-ca");
        ClientChains chains = ClientChains.NONE.next(Set.of(new TrustAnchor(ca.certificate(), null)));
        Session session = new Session(ca.client("CN=carol"));
        assertEquals(1, chains.verified(session, NOW).stream().count());
        assertEquals(Optional.empty(), chains.verified(session, NOW.plus(Duration.ofDays(31))), "it lasts 30 days");
    }

    @Test
    void onceItsCaIsOutOfTheFileItNamesNoOne() throws Exception {
        TestPki.Issued ca = TestPki.ca("client-ca");
        TestPki.Issued other = TestPki.ca("other-ca");
        ClientChains before = ClientChains.NONE.next(Set.of(new TrustAnchor(ca.certificate(), null)));
        Session session = new Session(ca.client("CN=carol"));
        assertEquals(1, before.verified(session, NOW).stream().count());
        ClientChains after = before.next(Set.of(new TrustAnchor(other.certificate(), null)));
        assertEquals(Optional.empty(), after.verified(session, NOW));
    }

    @Test
    void aCertificateForServersOnlyIsNoClientsIdentity() throws Exception {
        TestPki.Issued ca = TestPki.ca("client-ca");
        ClientChains chains = ClientChains.NONE.next(Set.of(new TrustAnchor(ca.certificate(), null)));
        assertEquals(Optional.empty(), chains.verified(new Session(ca.server("carol.example")), NOW));
    }

    @Test
    void aChainThroughAnIntermediateVerifiesInAnyOrderWithTheRootSentAlong() throws Exception {
        TestPki.Issued root = TestPki.ca("root");
        TestPki.Issued intermediate = root.intermediate("intermediate");
        TestPki.Issued carol = intermediate.client("CN=carol");
        ClientChains chains = ClientChains.NONE.next(Set.of(new TrustAnchor(root.certificate(), null)));
        Session unordered = new Session(carol.certificate(), root.certificate(), intermediate.certificate());
        assertEquals(Optional.of(carol.certificate()), chains.verified(unordered, NOW));
        assertEquals(Optional.empty(), chains.verified(new Session(carol.certificate()), NOW),
                "without its intermediate there is no path to the root");
    }

    /** Just what the chains read of a TLS session: its peer's certificates and its values. */
    private static final class Session implements SSLSession {

        final Map<String, Object> values = new HashMap<>();
        private final Certificate[] peer;

        Session(TestPki.Issued client) {
            this(client.certificate());
        }

        Session(Certificate... chain) {
            this.peer = chain;
        }

        @Override
        public Certificate[] getPeerCertificates() {
            return peer;
        }

        @Override
        public Object getValue(String name) {
            return values.get(name);
        }

        @Override
        public void putValue(String name, Object value) {
            values.put(name, value);
        }

        @Override
        public void removeValue(String name) {
            values.remove(name);
        }

        @Override
        public String[] getValueNames() {
            return values.keySet().toArray(String[]::new);
        }

        @Override
        public byte[] getId() {
            return new byte[0];
        }

        @Override
        public SSLSessionContext getSessionContext() {
            return null;
        }

        @Override
        public long getCreationTime() {
            return 0;
        }

        @Override
        public long getLastAccessedTime() {
            return 0;
        }

        @Override
        public void invalidate() {
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public Certificate[] getLocalCertificates() {
            return null;
        }

        @Override
        public Principal getPeerPrincipal() {
            return null;
        }

        @Override
        public Principal getLocalPrincipal() {
            return null;
        }

        @Override
        public String getCipherSuite() {
            return "";
        }

        @Override
        public String getProtocol() {
            return "TLSv1.3";
        }

        @Override
        public String getPeerHost() {
            return "";
        }

        @Override
        public int getPeerPort() {
            return 0;
        }

        @Override
        public int getPacketBufferSize() {
            return 0;
        }

        @Override
        public int getApplicationBufferSize() {
            return 0;
        }
    }
}
