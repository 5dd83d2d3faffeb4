package org.hetscope.formats.starpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads StarPU's data.rec: one record per data handle with its size, home node and coordinates. */
public final class DataRec {
    /** A registered data handle. */
    public record Handle(String handle, Integer homeNode, Long size, String description, String coordinates,
                         long line) {}

    private DataRec() {}

    public static List<Handle> read(Path file, StarpuProblems problems) throws IOException {
        List<Handle> out = new ArrayList<>();
        RecFile.read(file, problems, r -> {
            String h = r.get("Handle");
            if (h == null) {
                problems.add("data.rec record without Handle", file, r.line(), null);
                return;
            }
            try {
                String home = r.get("HomeNode");
                String size = r.get("Size");
                out.add(new Handle(h, home == null ? null : Integer.parseInt(home),
                        size == null ? null : Long.parseLong(size), r.get("Description"),
                        r.get("Coordinates"), r.line()));
            } catch (NumberFormatException e) {
                problems.add("data.rec record with a bad number", file, r.line(), e.getMessage());
            }
        });
        return out;
    }
}
