package io.watchgate.protobuf;

/** A duration as Go's time.Duration.String writes it ("1h2m3.5s", "300ms", "0s"): its JSON form. */
final class GoDuration {

    private GoDuration() {
    }

    static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        StringBuilder out = new StringBuilder(nanos < 0 ? "-" : "");
        long n = Math.abs(nanos);
        if (n < 1_000_000_000L) {
            if (n < 1_000) {
                return out.append(n).append("ns").toString();
            }
            if (n < 1_000_000) {
                return out.append(decimal(n, 1_000)).append("µs").toString();
            }
            return out.append(decimal(n, 1_000_000)).append("ms").toString();
        }
        long hours = n / 3_600_000_000_000L;
        long minutes = n / 60_000_000_000L % 60;
        long rest = n % 60_000_000_000L;
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            out.append(minutes).append('m');
        }
        return out.append(decimal(rest, 1_000_000_000L)).append('s').toString();
    }

    /** {@code value / unit} with the fraction's trailing zeros dropped. */
    private static String decimal(long value, long unit) {
        long whole = value / unit;
        long fraction = value % unit;
        if (fraction == 0) {
            return Long.toString(whole);
        }
        String digits = String.format("%0" + (Long.toString(unit).length() - 1) + "d", fraction).replaceAll("0+$", "");
        return whole + "." + digits;
    }
}
