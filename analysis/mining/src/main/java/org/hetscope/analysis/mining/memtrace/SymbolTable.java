package org.hetscope.analysis.mining.memtrace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hetscope.model.TraceFormatException;

/**
 * Function names of code addresses, from an {@code nm -n} (optionally {@code -S}) listing, lines "ADDR [SIZE] TYPE
 * NAME" (text symbols T, t, W, w), or an {@code objdump -t} listing (function symbols, "ADDR FLAGS F SECTION SIZE
 * NAME"). The function of a PC is the text symbol with the greatest start address not above
 * it, provided the PC lies before start + size when the size is known; otherwise {@code ??} (spec section 2).
 */
public final class SymbolTable {
    /** Name printed for an address no symbol covers. */
    public static final String UNKNOWN = "??";

    private final long[] starts;
    private final long[] sizes;
    private final String[] names;

    private SymbolTable(List<long[]> ranges, List<String> names) {
        Integer[] order = new Integer[ranges.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(ranges.get(a)[0], ranges.get(b)[0]));
        this.starts = new long[order.length];
        this.sizes = new long[order.length];
        this.names = new String[order.length];
        for (int i = 0; i < order.length; i++) {
            starts[i] = ranges.get(order[i])[0];
            sizes[i] = ranges.get(order[i])[1];
            this.names[i] = names.get(order[i]);
        }
    }

    /** A table of (start, size or -1, name) entries, for programs that know their functions. */
    public static SymbolTable of(List<long[]> ranges, List<String> names) {
        return new SymbolTable(ranges, names);
    }

    public static SymbolTable read(Path file) throws IOException, TraceFormatException {
        List<long[]> ranges = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file)) {
            String line;
            long lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String[] f = line.trim().split("\\s+");
                if (f.length < 3 || f[0].isEmpty()) {
                    continue; // undefined symbols ("U name") and headers carry no address
                }
                if (f.length >= 5 && line.contains(" F ") && f[0].matches("[0-9a-fA-F]+")) {
                    // objdump -t: "ADDR FLAGS F SECTION SIZE NAME"; only function symbols.
                    try {
                        ranges.add(new long[] {Long.parseUnsignedLong(f[0], 16),
                                Long.parseUnsignedLong(f[f.length - 2], 16)});
                        names.add(f[f.length - 1]);
                        continue;
                    } catch (NumberFormatException e) {
                        throw new TraceFormatException(file, "line " + lineNo,
                                "expected 'ADDRESS FLAGS F SECTION SIZE NAME' as objdump -t prints, got '"
                                        + line.strip() + "'");
                    }
                }
                if (f.length > 4 || !f[0].matches("(0[xX])?[0-9a-fA-F]+")) {
                    continue; // headers of objdump -t, section and file symbols
                }
                try {
                    long start = Long.parseUnsignedLong(strip(f[0]), 16);
                    long size = -1;
                    int type = 1;
                    if (f.length >= 4 && f[1].length() > 1) {
                        size = Long.parseUnsignedLong(strip(f[1]), 16);
                        type = 2;
                    }
                    String kind = f[type];
                    if (kind.length() == 1 && "TtWw".contains(kind)) {
                        ranges.add(new long[] {start, size});
                        names.add(f[type + 1]);
                    }
                } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                    throw new TraceFormatException(file, "line " + lineNo,
                            "expected 'ADDRESS [SIZE] TYPE NAME' as nm -n prints, got '" + line.strip() + "'");
                }
            }
        }
        return new SymbolTable(ranges, names);
    }

    private static String strip(String hex) {
        return hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
    }

    /** The function holding {@code pc}, or {@link #UNKNOWN}. */
    public String function(long pc) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], pc) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return UNKNOWN;
        }
        if (sizes[found] >= 0 && Long.compareUnsigned(pc - starts[found], sizes[found]) >= 0) {
            return UNKNOWN;
        }
        return names[found];
    }

    /** Start address of the function holding {@code pc}, or -1. */
    public long start(long pc) {
        String f = function(pc);
        if (UNKNOWN.equals(f)) {
            return -1;
        }
        for (int i = starts.length - 1; i >= 0; i--) {
            if (Long.compareUnsigned(starts[i], pc) <= 0) {
                return starts[i];
            }
        }
        return -1;
    }
}
