package org.hetscope.formats.starpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A GNU recutils file as StarPU writes them (tasks.rec, data.rec): records of {@code Field: value} lines
 * separated by blank lines. Lines starting with {@code #} are comments; a line without a colon is reported.
 */
final class RecFile {
    /** One record, its fields in file order and the line it starts on. */
    record Record(Map<String, String> fields, long line) {
        String get(String name) {
            return fields.get(name);
        }
    }

    private RecFile() {}

    /** Hands each record to {@code out} as it is read: a tasks.rec holds one per task, too many to keep as maps. */
    static void read(Path file, StarpuProblems problems, Consumer<Record> out) throws IOException {
        try (BufferedReader r = StarpuProblems.open(file)) {
            String line;
            long no = 0;
            Map<String, String> cur = null;
            long start = 0;
            while ((line = r.readLine()) != null) {
                no++;
                problems.checkText(file, no, line);
                if (line.isBlank()) {
                    if (cur != null) {
                        out.accept(new Record(cur, start));
                        cur = null;
                    }
                    continue;
                }
                if (line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    problems.add("rec line without 'Field:'", file, no, line);
                    continue;
                }
                if (cur == null) {
                    cur = new LinkedHashMap<>();
                    start = no;
                }
                cur.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
            if (cur != null) {
                out.accept(new Record(cur, start));
            }
        }
    }
}
