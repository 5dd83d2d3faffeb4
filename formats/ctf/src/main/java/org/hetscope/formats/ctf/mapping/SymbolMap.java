package org.hetscope.formats.ctf.mapping;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Function names by address from an {@code nm}-style file ({@code ADDRESS TYPE NAME} per line), as used with
 * LTTng's cyg-profile traces. An address inside a function (no exact entry) gets the nearest symbol below it.
 */
final class SymbolMap {
    private final TreeMap<Long, String> byAddress = new TreeMap<>();

    static SymbolMap load(Path file) throws IOException {
        SymbolMap m = new SymbolMap();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3) {
                continue;
            }
            try {
                m.byAddress.put(Long.parseUnsignedLong(f[0], 16), f[2]);
            } catch (NumberFormatException e) {
                // not a symbol line
            }
        }
        return m;
    }

    boolean isEmpty() {
        return byAddress.isEmpty();
    }

    /** The symbol for {@code addr}, or null. */
    String name(long addr) {
        Map.Entry<Long, String> e = byAddress.floorEntry(addr);
        if (e == null) {
            return null;
        }
        return e.getKey() == addr ? e.getValue() : e.getValue() + "+0x" + Long.toHexString(addr - e.getKey());
    }

    /** A mapping file for a trace: given by the system property {@code hetscope.ctf.symbols}, or a file named
     *  {@code *mapping*.txt} or {@code *.sym} in the trace folder or one of its two parents. */
    static Path find(Path traceDir) throws IOException {
        String prop = System.getProperty("hetscope.ctf.symbols");
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        Path d = traceDir.toAbsolutePath();
        for (int up = 0; up < 3 && d != null; up++, d = d.getParent()) {
            try (var s = Files.list(d)) {
                var hit = s.filter(p -> {
                    String n = p.getFileName().toString();
                    return Files.isRegularFile(p) && (n.endsWith(".sym") || n.contains("mapping") && n.endsWith(".txt"));
                }).sorted().findFirst();
                if (hit.isPresent()) {
                    return hit.get();
                }
            }
        }
        return null;
    }
}
