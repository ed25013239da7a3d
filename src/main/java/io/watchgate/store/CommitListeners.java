package io.watchgate.store;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/** The listeners told of each commit as it installs, each on its own: one's failure is not the commit's. */
final class CommitListeners {

    private static final Logger LOG = Logger.getLogger(CommitListeners.class);

    /** Copy on write: added rarely, read on every commit. */
    private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();

    CommitListener.Registration add(CommitListener listener) {
        listeners.add(listener);
        AtomicBoolean closed = new AtomicBoolean();
        // one occurrence, once: a listener added twice is told twice until both registrations are closed
        return () -> {
            if (closed.compareAndSet(false, true)) {
                listeners.remove(listener);
            }
        };
    }

    /** Tells every listener of {@code event}. Commit lock held. */
    void tell(ChangeEvent event) {
        for (CommitListener listener : listeners) {
            try {
                listener.committed(event);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                // the write is committed and must be acknowledged; a listener's failure is its own
                LOG.errorf(e, "commit listener failed on revision %d", event.revision());
            }
        }
    }

    /** Tells every listener that the state was replaced. Commit lock held. */
    void replaced(long revision, List<ChangeEvent> changes) {
        for (CommitListener listener : listeners) {
            try {
                listener.replaced(revision, changes);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                LOG.errorf(e, "commit listener failed on the state replaced at revision %d", revision);
            }
        }
    }

    int size() {
        return listeners.size();
    }
}
