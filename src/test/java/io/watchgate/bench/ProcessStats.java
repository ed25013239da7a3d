package io.watchgate.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of this process, and CPU time and memory of another (the server) read from /proc. */
final class ProcessStats {

    private static final long CLOCK_TICKS = clockTicks();

    private ProcessStats() {
    }

    /** CPU time (user + system) of this JVM, in nanoseconds. */
    static long ownCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** CPU time (utime + stime from /proc/PID/stat) of process {@code pid}, in nanoseconds, or -1. */
    static long cpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // the command name may hold spaces: fields are counted after its closing parenthesis
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15 of stat
            return ticks * 1_000_000_000L / CLOCK_TICKS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A field of /proc/PID/status in KiB (VmRSS, VmHWM, ...), or -1. */
    static long statusKib(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone, or this is no Linux
        }
        return -1;
    }

    /** The first three fields of /proc/loadavg (1, 5 and 15 minutes), or "?". */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** Threads of process {@code pid}, or -1. */
    static long threads(long pid) {
        return statusKib(pid, "Threads");
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            long ticks = Long.parseLong(out);
            return ticks > 0 ? ticks : 100;
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }

    /** Samples the server's VmRSS every {@code periodMillis} on a daemon thread and keeps the largest. */
    static final class RssSampler implements AutoCloseable {
        private final long pid;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long maxKib = -1;

        RssSampler(long pid, long periodMillis) {
            this.pid = pid;
            this.thread = new Thread(() -> {
                while (running) {
                    long rss = statusKib(pid, "VmRSS");
                    if (rss > maxKib) {
                        maxKib = rss;
                    }
                    try {
                        Thread.sleep(periodMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "rss-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        long maxKib() {
            return maxKib;
        }

        @Override
        public void close() {
            running = false;
            thread.interrupt();
            long rss = statusKib(pid, "VmRSS");
            if (rss > maxKib) {
                maxKib = rss;
            }
        }
    }
}
