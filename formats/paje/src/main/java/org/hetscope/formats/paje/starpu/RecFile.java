package org.hetscope.formats.paje.starpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.hetscope.model.SkipReason;

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

        /** The line of a field (StarPU writes a record's fields on consecutive lines, in order). */
        long lineOf(String name) {
            long l = line;
            for (String f : fields.keySet()) {
                if (f.equals(name)) {
                    return l;
                }
                l++;
            }
            return line;
        }

        /** A field's value as a number: a bad one is a {@link BadField} naming the field. */
        Long longValue(String name) {
            String v = fields.get(name);
            if (v == null) {
                return null;
            }
            try {
                return Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                throw new BadField(name, v);
            }
        }

        Integer intValue(String name) {
            Long v = longValue(name);
            if (v != null && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                throw new BadField(name, fields.get(name));
            }
            return v == null ? null : v.intValue();
        }

        /** The numbers of a field that holds a list of them separated by spaces. */
        java.util.List<Long> longs(String name) {
            String v = fields.get(name);
            java.util.List<Long> out = new java.util.ArrayList<>();
            for (String w : TasksRec.words(v)) {
                try {
                    out.add(Long.parseLong(w));
                } catch (NumberFormatException e) {
                    throw new BadField(name, w);
                }
            }
            return out;
        }
    }

    /** A field whose value is not the number it must be; its message is for users. */
    static final class BadField extends RuntimeException {
        final String field;

        BadField(String field, String value) {
            super("field " + field + ": '" + (value.length() > 40 ? value.substring(0, 40) + "..." : value)
                    + "' is not a number (or out of range)", null, false, false);
            this.field = field;
        }
    }

    private RecFile() {}

    /**
     * Hands each record to {@code out} as it is read: a tasks.rec holds one per task, too many to keep as maps.
     * StarPU ends every record with a blank line: a last record without one was cut short and is not handed on.
     */
    static void read(Path file, StarpuProblems problems, Consumer<Record> out) throws IOException {
        try (TextLines r = new TextLines(file, problems)) {
            String line;
            Map<String, String> cur = null;
            long start = 0;
            while ((line = r.next()) != null) {
                long no = r.number();
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
                    problems.add(SkipReason.DAMAGED_RECORD, "rec line without 'Field:'", file, no, line.length() > 80
                            ? line.substring(0, 80) + "..." : line);
                    continue;
                }
                if (cur == null) {
                    cur = new LinkedHashMap<>();
                    start = no;
                }
                cur.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
            if (cur != null) {
                problems.add(SkipReason.TRUNCATED, file.getFileName() + " record", file, start,
                        r.endedWithNewline() ? "no blank line after it" : "the file stops inside a line");
            }
        }
    }
}
