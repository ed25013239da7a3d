package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the hostile tests count as harm in the app's log. */
class HostileAppTest {

    private static final String BLOCKED = "2026-12-01 17:47:59,779 WARN  [io.vertx.core.impl.BlockedThreadChecker] "
            + "(vertx-blocked-thread-checker) Thread Thread[vert.x-eventloop-thread-0,5,main] has been blocked for "
            + "153 ms, time limit is 100 ms: io.vertx.core.VertxException: Thread blocked\n";

    @Test
    void aLoopBlockedInRequestWorkIsHarm() {
        List<String> harms = HostileApp.harms(BLOCKED
                + "\tat com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes(ObjectMapper.java:4100)\n"
                + "\tat io.watchgate.api.StatusMappers.toResponse(StatusMappers.java:40)\n"
                + "\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:569)\n");
        assertEquals(1, harms.size());
        assertTrue(harms.get(0).contains("blocked for 153 ms"));
    }

    @Test
    void aReportOfALoopWaitingInItsSelectorIsNoRequestsDoing() {
        assertEquals(List.of(), HostileApp.harms(BLOCKED
                + "\tat java.base@17.0.15/sun.nio.ch.EPollSelectorImpl.doSelect(EPollSelectorImpl.java:135)\n"
                + "\tat io.netty.channel.nio.NioEventLoop.select(NioEventLoop.java:891)\n"
                + "\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:526)\n"
                + "2026-12-01 17:48:00,001 INFO  [io.watchgate] next line\n"));
    }

    @Test
    void runningOutOfMemoryIsHarm() {
        assertEquals(1, HostileApp.harms("ERROR [io.watchgate.api.StatusMappers] (vert.x-eventloop-thread-1) request "
                + "failed on the server: java.lang.OutOfMemoryError: Java heap space\n").size());
    }

    @Test
    void theGcPausesWithinAReportAreNotTheLoopsDoing() {
        String blocked = BLOCKED.replace("153 ms", "109 ms") + "\tat io.watchgate.api.Writes.handle(Writes.java:1)\n";
        String zone = java.time.ZonedDateTime.of(2026, 12, 1, 17, 47, 59, 0, java.time.ZoneId.systemDefault())
                .getOffset().getId().replace(":", "").replace("Z", "+0000");
        String pause = "[2026-12-01T17:47:59.740" + zone + "] GC(7) Pause Young (Normal) (G1 Evacuation Pause) "
                + "300M->120M(512M) 31.250ms\n";
        assertEquals(List.of(), HostileApp.harms(pause + blocked), "78 ms of the loop's own");
        List<String> harms = HostileApp.harms(pause.replace("31.250ms", "3.100ms") + blocked);
        assertEquals(1, harms.size(), "106 ms of the loop's own");
        assertTrue(harms.get(0).contains("3.1 ms of it in GC pauses"), harms.get(0));
        assertTrue(harms.get(0).contains("Writes.handle"), "the stack says where: " + harms.get(0));
        String earlier = "[2026-12-01T17:47:58.500" + zone + "] GC(6) Pause Full (G1 Compaction Pause) "
                + "500M->100M(512M) 400.000ms\n";
        assertEquals(1, HostileApp.harms(earlier + blocked).size(), "a pause before the window is no excuse");
    }
}
