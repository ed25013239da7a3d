package io.watchgate.patch;

import static io.watchgate.patch.Linearity.assertLinear;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The linearity check itself: it takes linear work, and it catches the quadratic step it is there to catch. */
class LinearityTest {

    @Test
    void linearWorkPasses() {
        assertLinear("summing n numbers", n -> () -> sink(names(n).size()), 20_000);
    }

    @Test
    void aLinearScanPerElementFails() {
        // the regression each complexity test guards against: finding each element by walking the list
        assertThrows(AssertionError.class, () -> assertLinear("finding each of n names by a scan", n -> {
            List<String> names = names(n);
            return () -> {
                int found = 0;
                for (String name : names) {
                    found += names.indexOf(name) >= 0 ? 1 : 0;
                }
                sink(found);
            };
        }, 400));
    }

    private static List<String> names(int n) {
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add("name-" + i);
        }
        return names;
    }

    private static volatile int sunk;

    private static void sink(int value) {
        sunk = value;
    }
}
