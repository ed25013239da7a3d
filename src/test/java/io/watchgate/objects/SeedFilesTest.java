package io.watchgate.objects;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A seed directory that holds something other than manifests stops the start, naming the file. */
class SeedFilesTest {

    @TempDir
    Path dir;

    private String refusal(String file, String content) throws Exception {
        Files.writeString(dir.resolve(file), content);
        SeedData seed = new SeedData(() -> Optional.of(dir), null, null); // refused before anything is created
        return assertThrows(IllegalStateException.class, () -> seed.seed(null)).getMessage();
    }

    @Test
    void aListAtTheTopOfAFileIsNoManifest() throws Exception {
        String message = refusal("list.yaml", "- a\n- b\n");
        assertTrue(message.contains("list.yaml") && message.contains("apiVersion and kind"), message);
    }

    @Test
    void aDocumentWithoutKindIsNoManifest() throws Exception {
        String message = refusal("bare.yaml", "apiVersion: v1\nmetadata:\n  name: x\n---\n");
        assertTrue(message.contains("bare.yaml") && message.contains("apiVersion and kind"), message);
    }

    @Test
    void yamlThatDoesNotParseIsNoManifest() throws Exception {
        String message = refusal("broken.yaml", "kind: [unclosed\n");
        assertTrue(message.contains("broken.yaml"), message);
    }
}
