package io.watchgate.authn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The log lines of io.watchgate.authn while open, as text with their parameters, to check what they reveal. */
final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger = Logger.getLogger("io.watchgate.authn");
    private final List<String> lines = new ArrayList<>();

    LogCapture() {
        logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord record) {
        Object[] parameters = record.getParameters();
        lines.add(record.getLevel() + " " + record.getMessage()
                + (parameters == null ? "" : " " + Arrays.toString(parameters))
                + (record.getThrown() == null ? "" : " " + record.getThrown()));
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
