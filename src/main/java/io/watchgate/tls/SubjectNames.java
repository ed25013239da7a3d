package io.watchgate.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x509.GeneralName;

/** The names a serving certificate is for: IP addresses as such, everything else a DNS name. No lookups. */
final class SubjectNames {

    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}"
            + "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private SubjectNames() {
    }

    static boolean isAddress(String name) {
        return IPV4.matcher(name).matches() || IPV6.matcher(name).matches();
    }

    static GeneralName generalName(String name) {
        return isAddress(name) ? new GeneralName(GeneralName.iPAddress, name)
                : new GeneralName(GeneralName.dNSName, name);
    }

    /** A name as the JDK reports a certificate's alternative names: addresses in full, DNS names in lower case. */
    static String canonical(String name) {
        if (!isAddress(name)) {
            return name.toLowerCase(Locale.ROOT);
        }
        try {
            return InetAddress.getByName(name).getHostAddress(); // a literal (by the patterns): parsed, not looked up
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("\"" + name + "\" is not an IP address", e);
        }
    }
}
