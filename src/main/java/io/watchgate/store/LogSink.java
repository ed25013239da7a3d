package io.watchgate.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** Where the log reports on the writes in flight: installs and acknowledges what is durable, refuses what is lost. */
final class LogSink implements CommitLog.Sink {

    private final ReentrantLock commitLock;
    private final InFlightWrites inFlight;
    private final Installer installer;

    LogSink(ReentrantLock commitLock, InFlightWrites inFlight, Installer installer) {
        this.commitLock = commitLock;
        this.inFlight = inFlight;
        this.installer = installer;
    }

    @Override
    public void durable(List<ChangeEvent> batch) {
        List<InFlightWrites.Write> done = new ArrayList<>(batch.size());
        commitLock.lock();
        try {
            for (ChangeEvent event : batch) {
                InFlightWrites.Write write = inFlight.oldest(event);
                installer.install(event);
                inFlight.landed(write);
                done.add(write);
            }
        } finally {
            commitLock.unlock();
            // what was installed is durable and visible: acknowledged, even if a later one failed
            done.forEach(write -> write.durable().complete(write.event()));
        }
    }

    @Override
    public void failed(Exception cause) {
        List<InFlightWrites.Write> lost;
        commitLock.lock();
        try {
            lost = inFlight.abandonAll();
        } finally {
            commitLock.unlock();
        }
        StoreException.Unavailable unavailable = new StoreException.Unavailable(
                "the write could not be made durable: " + cause.getMessage());
        lost.forEach(write -> write.durable().completeExceptionally(unavailable));
    }
}
