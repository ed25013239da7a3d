package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Whatever fields are written as CSV (quoted where they must be) read back as they were. */
class KubeCsvTest {

    private static final String ALPHABET = "ab ,\"\n\r\t:é";

    @Test
    void recordsWrittenAsCsvReadBackTheSame() throws Exception {
        for (long seed = 1; seed <= 500; seed++) {
            Random random = new Random(seed);
            List<List<String>> written = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            int records = 1 + random.nextInt(5);
            for (int r = 0; r < records; r++) {
                List<String> fields = new ArrayList<>();
                int count = 1 + random.nextInt(5);
                for (int f = 0; f < count; f++) {
                    fields.add(field(random));
                }
                if (fields.size() == 1 && fields.get(0).isEmpty()) {
                    fields.set(0, "x"); // an empty line is no record, in Go as here
                }
                written.add(fields);
                text.append(encode(fields)).append(random.nextBoolean() ? "\n" : "\r\n");
            }
            List<List<String>> read = KubeCsv.read(text.toString()).stream().map(KubeCsv.Record::fields).toList();
            assertEquals(written, read, "seed " + seed + ", text " + text.toString().replace("\n", "\\n"));
        }
    }

    private static String field(Random random) {
        StringBuilder field = new StringBuilder();
        int length = random.nextInt(6);
        for (int i = 0; i < length; i++) {
            field.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        // CRLF inside a field reads as LF (Go normalizes it), so none is written
        return field.toString().replace("\r\n", "\n").replace("\r", "");
    }

    private static String encode(List<String> fields) {
        List<String> encoded = new ArrayList<>();
        for (String field : fields) {
            boolean quote = field.contains(",") || field.contains("\"") || field.contains("\n");
            encoded.add(quote ? "\"" + field.replace("\"", "\"\"") + "\"" : field);
        }
        return String.join(",", encoded);
    }
}
