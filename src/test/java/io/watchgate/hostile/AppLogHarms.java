package io.watchgate.hostile;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What in an app's log shows that a request hurt everyone else without any answer showing it: an
 * {@code OutOfMemoryError}, or an event loop held past Vert.x's limit while it was running something.
 *
 * <p>The blocked-thread checker measures wall time, so two kinds of its reports are no request's doing and are left
 * out. A report whose stack shows the loop waiting in its selector measured a task that had already ended. And the
 * stop-the-world GC pauses that ended within a report's window (from {@code -Xlog:gc:stdout:time}) stopped every
 * thread alike: the loop held the rest, and only a rest past the limit is harm. Memory a request may take is what the
 * out-of-memory check and the write budget answer for.
 */
final class AppLogHarms {

    private static final Pattern BLOCKED = Pattern.compile(
            "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*vert\\.x-eventloop-thread.* has been blocked for "
                    + "(\\d+) ms, time limit is (\\d+) ms.*");
    private static final Pattern PAUSE = Pattern.compile("^\\[([^]]+)] GC\\(\\d+\\) Pause .* (\\d+(?:\\.\\d+)?)ms$");
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
    private static final DateTimeFormatter GC_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    private static final int FRAMES_SHOWN = 12;

    private AppLogHarms() {
    }

    private record Pause(Instant end, double millis) {
    }

    static List<String> in(String log) {
        String[] lines = log.split("\n");
        List<Pause> pauses = pauses(lines);
        List<String> harms = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.contains("OutOfMemoryError")) {
                harms.add(shortened(line));
                continue;
            }
            Matcher blocked = BLOCKED.matcher(line);
            if (!blocked.matches()) {
                continue;
            }
            List<String> stack = new ArrayList<>();
            for (int j = i + 1; j < lines.length && lines[j].startsWith("\tat "); j++) {
                stack.add(lines[j]);
            }
            if (stack.stream().anyMatch(frame -> frame.contains("NioEventLoop.select("))) {
                continue;
            }
            long heldMillis = Long.parseLong(blocked.group(2));
            long limitMillis = Long.parseLong(blocked.group(3));
            Instant reported = LocalDateTime.parse(blocked.group(1), LOG_TIME).atZone(ZoneId.systemDefault())
                    .toInstant();
            double paused = pausedWithin(pauses, reported.minusMillis(heldMillis), reported);
            if (heldMillis - paused > limitMillis) {
                harms.add(shortened(line) + (paused > 0 ? String.format(" (%.1f ms of it in GC pauses)", paused) : "")
                        + "\n" + String.join("\n", stack.subList(0, Math.min(FRAMES_SHOWN, stack.size()))));
            }
        }
        return harms;
    }

    private static List<Pause> pauses(String[] lines) {
        List<Pause> pauses = new ArrayList<>();
        for (String line : lines) {
            Matcher pause = PAUSE.matcher(line.strip());
            if (pause.matches()) {
                pauses.add(new Pause(OffsetDateTime.parse(pause.group(1), GC_TIME).toInstant(),
                        Double.parseDouble(pause.group(2))));
            }
        }
        return pauses;
    }

    /** How much of the window the pauses cover; the log's times are to the millisecond, so the window is widened by one. */
    private static double pausedWithin(List<Pause> pauses, Instant from, Instant to) {
        double fromMillis = from.toEpochMilli() - 1;
        double toMillis = to.toEpochMilli() + 1;
        double paused = 0;
        for (Pause pause : pauses) {
            double end = pause.end().toEpochMilli();
            paused += Math.max(0, Math.min(end, toMillis) - Math.max(end - pause.millis(), fromMillis));
        }
        return paused;
    }

    private static String shortened(String line) {
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
