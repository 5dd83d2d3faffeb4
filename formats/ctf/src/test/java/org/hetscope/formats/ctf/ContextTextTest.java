package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The in-place text comparison agrees with the decoded string on every event of a real LTTng-UST trace. */
class ContextTextTest {
    @Test
    void procnameComparedInPlaceMatchesTheDecodedString() throws Exception {
        Path trace = Fixtures.ctf("context-switches/context-switches-ust");
        Assumptions.assumeTrue(Files.isDirectory(trace), "shared fixture missing");
        long events = 0;
        try (CtfTrace t = CtfTrace.open(trace); CtfTrace.Cursor c = t.cursor()) {
            while (c.next()) {
                CtfEvent e = c.event();
                String name = e.contextString("procname");
                if (name == null) {
                    continue;
                }
                byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
                assertTrue(e.contextTextIs("procname", bytes), name);
                if (bytes.length > 0) {
                    byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - 1);
                    assertFalse(e.contextTextIs("procname", shorter), "prefix of " + name);
                    byte[] other = bytes.clone();
                    other[0] ^= 1;
                    assertFalse(e.contextTextIs("procname", other), "changed " + name);
                }
                assertFalse(e.contextTextIs("procname", (name + "x").getBytes(StandardCharsets.UTF_8)));
                assertFalse(e.contextTextIs("no_such_field", bytes));
                events++;
            }
        }
        assertTrue(events > 0, "the fixture has events with a procname context");
    }
}
