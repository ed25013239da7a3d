package io.watchgate.tls;

import io.quarkus.tls.runtime.KeyStoreAndKeyCertOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.JksOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

/**
 * A certificate chain and its key as the key store HTTPS serves, held in memory only.
 *
 * <p>JKS, not PKCS #12: a PKCS #12 store wraps its key with 10,000 rounds of PBKDF2 each time the key goes in or
 * comes out, and Vert.x and the JDK's key manager take it out twice per load: some 0.2 of the 3.4 CPU-seconds a
 * start took. This store never leaves the process and its password lives beside it, so the rounds protect
 * nothing; JKS's key wrap costs next to nothing.
 */
final class ServedKeyStore {

    private static final String ALIAS = "serving";

    private ServedKeyStore() {
    }

    static KeyStoreAndKeyCertOptions of(PrivateKey key, List<X509Certificate> chain)
            throws IOException, GeneralSecurityException {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        char[] password = Base64.getEncoder().encodeToString(random).toCharArray();
        KeyStore store = KeyStore.getInstance("JKS");
        store.load(null, null);
        store.setKeyEntry(ALIAS, key, password, chain.toArray(X509Certificate[]::new));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        store.store(bytes, password);
        JksOptions options = new JksOptions().setValue(Buffer.buffer(bytes.toByteArray()))
                .setPassword(new String(password)).setAlias(ALIAS);
        return new KeyStoreAndKeyCertOptions(store, options);
    }
}
