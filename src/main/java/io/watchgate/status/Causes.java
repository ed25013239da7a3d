package io.watchgate.status;

import java.util.ArrayList;
import java.util.List;

/**
 * The causes of one refusal, as a validator finds them: the first {@link #MAX} are kept, the rest only counted, so
 * that an object with a quarter of a million bad keys costs a few dozen causes, not a quarter of a million. A
 * validator asks {@link #accept} before it describes a problem, and describes it only when there is room.
 */
public final class Causes {

    /** The causes a Status carries at most; the message then says how many more there were. */
    public static final int MAX = 32;

    private final List<Cause> kept = new ArrayList<>();
    private long omitted;

    /** Counts one more problem; true when it is to be described (and {@link #add}ed), false when only counted. */
    public boolean accept() {
        if (kept.size() < MAX) {
            return true;
        }
        omitted++;
        return false;
    }

    /** Keeps {@code cause} when there is room, else counts it. */
    public void add(Cause cause) {
        if (kept.size() < MAX) {
            kept.add(cause);
        } else {
            omitted++;
        }
    }

    /** Adds every one of {@code causes}, as {@link #add} does. */
    public void addAll(List<Cause> causes) {
        causes.forEach(this::add);
    }

    /** Counts {@code problems} found and not described (a validator that counted them itself). */
    public void countOmitted(long problems) {
        omitted += problems;
    }

    /** Whether no problem was found. */
    public boolean isEmpty() {
        return kept.isEmpty() && omitted == 0;
    }

    /** The causes kept, at most {@link #MAX}. */
    public List<Cause> kept() {
        return List.copyOf(kept);
    }

    /** The problems found beyond those kept. */
    public long omitted() {
        return omitted;
    }
}
