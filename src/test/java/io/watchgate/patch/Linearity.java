package io.watchgate.patch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.IntFunction;

/**
 * Whether a cost grows linearly with its input: the work at ten times the size may take at most 30 times as long,
 * where a quadratic step takes some 100 times as long. Both sizes are measured in one run as the fastest of a few
 * repetitions, in CPU time of the measuring thread, never in wall-clock time: on a busy machine a short task fits in
 * one time slice where a long one is shared, which wall-clock time would count against it. Linear work has measured
 * up to 15.7 on this 2-core machine under CI; the bound leaves twice that.
 *
 * <p>Nothing here collects the heap: in a test JVM that has run Quarkus applications a full collection takes a
 * second or more, and the young collections a repetition may meet are what the fastest of five leaves out.
 */
public final class Linearity {

    private static final int REPETITIONS = 5;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final double BOUND = 30;

    private Linearity() {
    }

    /**
     * @param work makes the work for a size (outside the timing) and returns it to be timed
     * @param size the smaller size; it should take some milliseconds, or timer noise dominates
     */
    public static void assertLinear(String what, IntFunction<Runnable> work, int size) {
        double ratio = ratio(work, size);
        assertTrue(ratio <= BOUND, what + ": 10x the input took " + String.format("%.1f", ratio) + "x as long");
    }

    /**
     * As {@link #assertLinear(String, IntFunction, int)}, but where caches and the collector make even linear work
     * on this data grow faster than its size, the work may also grow up to twice as fast as {@code linear}, a
     * task known to be linear (a deep copy of the same inputs, say): a quadratic step still grows some ten times
     * faster.
     */
    public static void assertLinear(String what, IntFunction<Runnable> work, IntFunction<Runnable> linear, int size) {
        double ratio = ratio(work, size);
        double reference = ratio(linear, size);
        assertTrue(ratio <= BOUND || ratio <= 2 * reference, what + ": 10x the input took "
                + String.format("%.1f", ratio) + "x as long, a linear task on it " + String.format("%.1f", reference)
                + "x");
    }

    private static double ratio(IntFunction<Runnable> work, int size) {
        fastest(work, size); // warm up both sizes before measuring either
        fastest(work, size * 10);
        long small = fastest(work, size);
        long large = fastest(work, size * 10);
        return (double) large / Math.max(small, 1);
    }

    private static long fastest(IntFunction<Runnable> work, int size) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < REPETITIONS; i++) {
            Runnable task = work.apply(size);
            long start = THREADS.getCurrentThreadCpuTime();
            task.run();
            best = Math.min(best, THREADS.getCurrentThreadCpuTime() - start);
        }
        return best;
    }
}
