package io.watchgate.bench;

import java.util.Arrays;

/**
 * What one watcher received against what it should have: exactly the successful writes to its namespace (all of
 * them for an all-namespaces watch), each once, in increasing resourceVersion, ADDED for a create and MODIFIED
 * for an update.
 *
 * @param received   data events received (ADDED/MODIFIED/DELETED)
 * @param matched    distinct expected resourceVersions received
 * @param lost       expected resourceVersions never received
 * @param duplicated events whose resourceVersion this watcher had received already
 * @param outOfOrder events with a resourceVersion lower than one received before them
 * @param unexpected distinct resourceVersions received that no write of its namespace made
 * @param wrongType  events of an expected resourceVersion with the wrong type
 */
record DeliveryCheck(int received, int matched, int lost, int duplicated, int outOfOrder, int unexpected,
        int wrongType) {

    boolean clean() {
        return lost == 0 && duplicated == 0 && outOfOrder == 0 && unexpected == 0 && wrongType == 0;
    }

    /**
     * @param rvs           received resourceVersions, in arrival order
     * @param types         their types, aligned with {@code rvs}
     * @param expected      the expected resourceVersions, sorted
     * @param expectedTypes their types, aligned with {@code expected}
     */
    static DeliveryCheck of(LongList rvs, LongList types, long[] expected, long[] expectedTypes) {
        int n = rvs.size();
        long max = Long.MIN_VALUE;
        int outOfOrder = 0;
        int wrongType = 0;
        for (int i = 0; i < n; i++) {
            long rv = rvs.get(i);
            if (rv < max) {
                outOfOrder++;
            }
            max = Math.max(max, rv);
            int at = Arrays.binarySearch(expected, rv);
            if (at >= 0 && types.get(i) != expectedTypes[at]) {
                wrongType++;
            }
        }
        long[] sorted = rvs.toArray();
        Arrays.sort(sorted);
        int distinct = 0;
        int matched = 0;
        int e = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i > 0 && sorted[i] == sorted[i - 1]) {
                continue;
            }
            distinct++;
            while (e < expected.length && expected[e] < sorted[i]) {
                e++;
            }
            if (e < expected.length && expected[e] == sorted[i]) {
                matched++;
            }
        }
        return new DeliveryCheck(n, matched, expected.length - matched, n - distinct, outOfOrder,
                distinct - matched, wrongType);
    }

    /** Sorts writes by resourceVersion: returns {sorted rvs, their types}. */
    static long[][] sortedWrites(LongList rvs, LongList types) {
        long[] packed = new long[rvs.size()];
        for (int i = 0; i < packed.length; i++) {
            packed[i] = rvs.get(i) * 4 + types.get(i);
        }
        Arrays.sort(packed);
        long[] sortedRvs = new long[packed.length];
        long[] sortedTypes = new long[packed.length];
        for (int i = 0; i < packed.length; i++) {
            sortedRvs[i] = packed[i] / 4;
            sortedTypes[i] = packed[i] % 4;
        }
        return new long[][] {sortedRvs, sortedTypes};
    }
}
