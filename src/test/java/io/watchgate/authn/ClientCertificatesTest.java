package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.x500.X500Name;
import org.junit.jupiter.api.Test;

/** The user of a certificate's subject, as Go's pkix.Name reads it for kube's x509 authenticator. */
class ClientCertificatesTest {

    @Test
    void theLastCommonNameAndEveryOrganizationInOrderUnescaped() {
        UserInfo user = ClientCertificates.userOf(new X500Name("O=b\\,c,CN=first,O=a,CN=last")).orElseThrow();
        assertEquals("last", user.name());
        assertEquals(List.of("b,c", "a", UserInfo.AUTHENTICATED), user.groups());
        assertEquals("", user.uid());
    }

    @Test
    void noCommonNameNoUser() {
        assertEquals(Optional.empty(), ClientCertificates.userOf(new X500Name("O=devs")));
    }
}
