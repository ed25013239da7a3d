package io.watchgate.validation;

import io.watchgate.status.Causes;

/**
 * How many more problems one validation describes, handed to the constraint validators as Hibernate Validator's
 * payload: past {@link Causes#MAX} they report a bad key as valid, and count it here instead, so that a quarter of a
 * million bad label keys cost a counter, not a quarter of a million violations.
 */
final class ProblemBudget {

    private int left = Causes.MAX;
    private long omitted;

    /** Counts one more problem; true while it is to be described as a violation. */
    boolean describe() {
        if (left > 0) {
            left--;
            return true;
        }
        omitted++;
        return false;
    }

    long omitted() {
        return omitted;
    }
}
