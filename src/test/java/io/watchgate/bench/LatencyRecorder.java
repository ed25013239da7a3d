package io.watchgate.bench;

import java.util.Arrays;

/**
 * Latencies in nanoseconds, kept whole (no histogram): percentiles are read from the sorted array. Two million
 * samples cost 16 MB, which is fine for runs of this size. Not thread-safe: one owner thread, or merge afterwards.
 */
final class LatencyRecorder {

    private final LongList samples = new LongList(1024);
    private long[] sorted;

    void record(long nanos) {
        samples.add(nanos);
        sorted = null;
    }

    void addAll(LatencyRecorder other) {
        samples.addAll(other.samples);
        sorted = null;
    }

    void clear() {
        samples.clear();
        sorted = null;
    }

    int count() {
        return samples.size();
    }

    /** The value at quantile {@code q} (0 &lt; q &le; 1): the smallest sample with at least q of all at or below it. */
    long percentile(double q) {
        long[] s = sorted();
        if (s.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * s.length);
        return s[Math.min(s.length, Math.max(1, rank)) - 1];
    }

    long max() {
        long[] s = sorted();
        return s.length == 0 ? 0 : s[s.length - 1];
    }

    long min() {
        long[] s = sorted();
        return s.length == 0 ? 0 : s[0];
    }

    double mean() {
        long[] s = sorted();
        if (s.length == 0) {
            return 0;
        }
        double sum = 0;
        for (long v : s) {
            sum += v;
        }
        return sum / s.length;
    }

    private long[] sorted() {
        if (sorted == null) {
            sorted = samples.toArray();
            Arrays.sort(sorted);
        }
        return sorted;
    }

    /** p50/p90/p99/p99.9/max in milliseconds, for a report line. */
    String summaryMillis() {
        if (count() == 0) {
            return "n=0";
        }
        return String.format("n=%d  p50=%s  p90=%s  p99=%s  p99.9=%s  max=%s ms", count(), ms(percentile(0.50)),
                ms(percentile(0.90)), ms(percentile(0.99)), ms(percentile(0.999)), ms(max()));
    }

    static String ms(long nanos) {
        double millis = nanos / 1e6;
        return millis >= 100 ? String.format("%.0f", millis) : millis >= 10 ? String.format("%.1f", millis)
                : String.format("%.2f", millis);
    }
}
