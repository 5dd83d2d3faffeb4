package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/schema.md lists exactly the skip reasons there are, each with its severity and description. */
class SkipReasonDocsTest {

    @Test
    void theSchemaDocumentListsEveryReason() throws IOException {
        String doc = Files.readString(Path.of("../docs/schema.md"));
        int from = doc.indexOf("## Skip reasons");
        String section = doc.substring(from, doc.indexOf("\n## ", from + 1));
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\| `([a-z_0-9]+)` \\| ([a-z_]+) \\| (.+) \\|$").matcher(section);
        while (m.find()) {
            documented.put(m.group(1), m.group(2) + " | " + m.group(3));
        }
        Map<String, String> actual = new LinkedHashMap<>();
        for (SkipReason r : SkipReason.values()) {
            actual.put(r.id(), r.severity().id() + " | " + r.description());
        }
        assertEquals(actual, documented);
    }
}
