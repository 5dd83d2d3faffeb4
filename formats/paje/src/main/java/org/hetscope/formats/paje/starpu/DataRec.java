package org.hetscope.formats.paje.starpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.SkipReason;

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
                problems.add(SkipReason.DAMAGED_RECORD, "data.rec record without Handle", file, r.line(), null);
                return;
            }
            try {
                out.add(new Handle(h, r.intValue("HomeNode"), r.longValue("Size"), r.get("Description"),
                        r.get("Coordinates"), r.line()));
            } catch (RecFile.BadField e) {
                problems.add(SkipReason.DAMAGED_RECORD, "data.rec record with a bad number", file,
                        r.lineOf(e.field), e.getMessage());
            }
        });
        return out;
    }
}
