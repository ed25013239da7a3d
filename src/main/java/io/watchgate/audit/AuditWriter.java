package io.watchgate.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Writes audit lines on a thread of its own, so that no event loop waits for a disk: requests hand their line to a
 * queue bounded in bytes ({@code watchgate.audit.buffer-bytes}), and a line that would overflow it is dropped and
 * counted. The writer flushes whenever the queue runs dry, and drains it at shutdown.
 */
@ApplicationScoped
class AuditWriter {

    private static final Logger LOG = Logger.getLogger(AuditWriter.class);
    private static final byte[] STOP = new byte[0];

    private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long bufferBytes;
    private final Counter written;
    private final Counter dropped;
    private final String path;
    private final boolean enabled;
    private volatile boolean closed;
    private Thread thread;

    AuditWriter(AuditConfig config, MeterRegistry registry) {
        this.enabled = config.enabled();
        this.bufferBytes = config.bufferBytes();
        this.path = config.logPath();
        this.written = Counter.builder("watchgate.audit.events").description("audit events written")
                .register(registry);
        this.dropped = Counter.builder("watchgate.audit.events.dropped")
                .description("audit events dropped because the lines waiting to be written filled the buffer")
                .register(registry);
    }

    /** Queues one line (ending in a newline); false, and counted, when the buffer has no room for it. */
    boolean offer(byte[] line) {
        if (closed) {
            dropped.increment();
            return false;
        }
        if (queuedBytes.addAndGet(line.length) > bufferBytes) {
            queuedBytes.addAndGet(-line.length);
            dropped.increment();
            return false;
        }
        queue.add(line);
        return true;
    }

    /** Opens the log as the server starts: a path that cannot be written stops the start. */
    synchronized void start(@Observes StartupEvent event) {
        if (!enabled || thread != null) {
            return;
        }
        OutputStream out;
        try {
            out = path.equals("-") ? System.out : new FileOutputStream(path, true);
        } catch (IOException e) {
            throw new IllegalStateException("watchgate.audit.log-path " + path + " cannot be opened: " + e.getMessage(),
                    e);
        }
        thread = new Thread(() -> run(new BufferedOutputStream(out, 1 << 16)), "watchgate-audit");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(OutputStream out) {
        try {
            while (true) {
                byte[] line = queue.poll();
                if (line == null) {
                    out.flush(); // the queue ran dry: what is written is readable
                    line = queue.take();
                }
                if (line == STOP) {
                    out.flush();
                    return;
                }
                queuedBytes.addAndGet(-line.length);
                out.write(line);
                written.increment();
            }
        } catch (IOException e) {
            LOG.errorf("the audit log %s cannot be written; audit events are dropped from now on: %s", path,
                    e.getMessage());
            queuedBytes.set(Long.MAX_VALUE / 2); // every later offer is dropped and counted
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Late among the shutdown observers, so that the watches ended before it are written. */
    void stop(@Observes @Priority(Integer.MAX_VALUE) ShutdownEvent event) throws InterruptedException {
        Thread writer;
        synchronized (this) {
            writer = thread;
        }
        closed = true; // what comes after is dropped and counted, not queued behind the end
        if (writer != null) {
            queue.add(STOP);
            writer.join(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
