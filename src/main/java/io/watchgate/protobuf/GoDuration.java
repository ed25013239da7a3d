package io.watchgate.protobuf;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A duration as Go's time.Duration.String writes and time.ParseDuration reads it ("1h2m3.5s", "300ms", "0s"): its JSON form. */
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

    private static final Pattern TERM =
            Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)");

    /** Go's time.ParseDuration: a signed sequence of decimal numbers with units; "0" alone is zero. */
    static long parse(String text) {
        String rest = text;
        boolean negative = rest.startsWith("-");
        if (negative || rest.startsWith("+")) {
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return 0;
        }
        Matcher term = TERM.matcher(rest);
        BigDecimal total = BigDecimal.ZERO;
        int at = 0;
        while (at < rest.length() && term.find(at) && term.start() == at && !term.group(1).isEmpty()
                && !term.group(1).equals(".")) {
            long unit = switch (term.group(2)) {
                case "ns" -> 1L;
                case "us", "µs", "μs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            total = total.add(new BigDecimal(term.group(1)).multiply(BigDecimal.valueOf(unit)));
            at = term.end();
        }
        if (rest.isEmpty() || at != rest.length()) {
            throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
        }
        if (total.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
        }
        long nanos = total.longValue();
        return negative ? -nanos : nanos;
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
