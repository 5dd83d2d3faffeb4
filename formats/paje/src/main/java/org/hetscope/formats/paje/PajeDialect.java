package org.hetscope.formats.paje;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Recognises which producer wrote a Paje file from its header alone. */
public final class PajeDialect {
    private PajeDialect() {}

    /**
     * Whether the header is StarPU's: a {@code PajeNewEvent} with a {@code Handle} field (memory-manager events)
     * or a {@code PajeSetState} with a {@code JobId} field (task states).
     */
    public static boolean isStarpu(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String line;
            String def = null;
            int n = 0;
            while ((line = r.readLine()) != null && n++ < 10_000) {
                String t = line.trim();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                if (!t.startsWith("%")) {
                    return false;
                }
                String[] p = t.substring(1).trim().split("[ \t]+");
                if (p[0].equals("EventDef") && p.length > 1) {
                    def = p[1];
                } else if (p[0].equals("EndEventDef")) {
                    def = null;
                } else if (def != null) {
                    String field = p.length > 0 ? p[0] : "";
                    if ((def.equals("PajeNewEvent") && field.equals("Handle"))
                            || (def.equals("PajeSetState") && field.equals("JobId"))) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
