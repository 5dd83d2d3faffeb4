package org.hetscope.formats.ctf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Paths of the shared CTF fixtures and their published event counts (EXPECTED.tsv). */
final class Fixtures {
    static Path root() {
        return Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures").normalize();
    }

    static Path ctf(String name) {
        return root().resolve("ctf").resolve(name);
    }

    static Map<String, Long> expected() throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(root().resolve("ctf/EXPECTED.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            out.put(f[0], Long.parseLong(f[1]));
        }
        return out;
    }

    private Fixtures() {}
}
