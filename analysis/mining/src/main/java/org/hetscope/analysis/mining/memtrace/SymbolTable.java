package org.hetscope.analysis.mining.memtrace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.model.TraceFormatException;

/**
 * Function names of code addresses, from any of: an {@code nm -n} (optionally {@code -S}) listing, lines "ADDR
 * [SIZE] TYPE NAME" (text symbols T, t, W, w, i); an {@code objdump -t} or {@code -T} listing (function symbols,
 * "ADDR FLAGS SECTION\tSIZE [VERSION] [.hidden|.protected|.internal] NAME"); or the ELF executable itself (its
 * {@code .symtab}, else {@code .dynsym}: {@link ElfSymbols}). The function of a PC is the function symbol with the
 * greatest start address not above it, provided the PC lies before start + size when the size is known;
 * otherwise {@code ??} (spec section 2). A size of 0 counts as unknown, as {@code nm -S} prints no size for it,
 * so that the three inputs of one program give the same table.
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

    /** Reads an nm or objdump listing, or an ELF file, telling them apart by content. */
    public static SymbolTable read(Path file) throws IOException, TraceFormatException {
        List<long[]> ranges = new ArrayList<>();
        List<String> names = new ArrayList<>();
        byte[] head = new byte[4];
        int got;
        try (var in = Files.newInputStream(file)) {
            got = in.readNBytes(head, 0, 4);
        }
        if (got == 4 && ElfSymbols.isElf(head)) {
            ElfSymbols.read(file, (start, size, name) -> {
                ranges.add(new long[] {start, size == 0 ? -1 : size});
                names.add(name);
            });
        } else {
            readListing(file, ranges, names);
        }
        if (ranges.isEmpty()) {
            throw new TraceFormatException(file, "end of file", "no function symbols: expected the output of "
                    + "nm -n [-S] or objdump -t, or an ELF executable with a symbol table");
        }
        return new SymbolTable(ranges, names);
    }

    /** objdump -t/-T: address, 7 flag characters, section, tab, size, then [version] [visibility] name. */
    private static final Pattern OBJDUMP = Pattern.compile("([0-9a-fA-F]+) (.{7}) (\\S+)\t([0-9a-fA-F]+)\\s+(.*)");
    /** nm: address, optional size (nm -S pads it, so it has more than one digit), type letter, name. */
    private static final Pattern NM = Pattern.compile("(?:0[xX])?([0-9a-fA-F]+)\\s+(?:([0-9a-fA-F]{2,})\\s+)?(\\S)\\s+(.+)");
    /** What objdump may print between the size and the name: symbol visibility or other st_other bits. */
    private static final Pattern OTHER = Pattern.compile("(\\.hidden|\\.protected|\\.internal|0x[0-9a-fA-F]+)\\s+(.*)");

    private static void readListing(Path file, List<long[]> ranges, List<String> names)
            throws IOException, TraceFormatException {
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        long lineNo = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder))) {
            String line;
            boolean dynamic = false;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String t = line.strip();
                if (t.equals("DYNAMIC SYMBOL TABLE:")) {
                    dynamic = true;
                    continue;
                }
                Matcher o = OBJDUMP.matcher(t);
                if (o.matches()) {
                    String flags = o.group(2);
                    String section = o.group(3);
                    if (flags.charAt(6) != 'F' || section.startsWith("*")) {
                        continue; // not a function, or undefined (*UND*) / absolute
                    }
                    String rest = o.group(5);
                    if (dynamic) {
                        // objdump -T prints the symbol version ("Base", "(GLIBC_2.2.5)") before the name.
                        String[] vn = rest.split("\\s+", 2);
                        rest = vn.length == 2 ? vn[1] : "";
                    }
                    Matcher other;
                    while ((other = OTHER.matcher(rest)).matches()) {
                        rest = other.group(2);
                    }
                    rest = rest.strip();
                    if (!rest.isEmpty()) {
                        long size = Long.parseUnsignedLong(o.group(4), 16);
                        ranges.add(new long[] {Long.parseUnsignedLong(o.group(1), 16), size == 0 ? -1 : size});
                        names.add(rest);
                    }
                    continue;
                }
                String[] f = t.split("\\s+");
                if (f.length < 3 || !f[0].matches("(0[xX])?[0-9a-fA-F]+")) {
                    continue; // undefined symbols ("U name"), headers, blank lines
                }
                Matcher n = NM.matcher(t);
                if (!n.matches()) {
                    if (t.indexOf('\t') >= 0) {
                        continue; // objdump lines without a function's layout
                    }
                    throw new TraceFormatException(file, "line " + lineNo, "expected 'ADDRESS [SIZE] TYPE NAME' as "
                            + "nm -n prints, or 'ADDRESS FLAGS SECTION<tab>SIZE NAME' as objdump -t prints, got '"
                            + t + "'");
                }
                String kind = n.group(3);
                if (kind.length() == 1 && "TtWwi".contains(kind)) {
                    long size = n.group(2) == null ? -1 : Long.parseUnsignedLong(n.group(2), 16);
                    ranges.add(new long[] {Long.parseUnsignedLong(n.group(1), 16), size == 0 ? -1 : size});
                    names.add(n.group(4).strip());
                }
            }
        } catch (CharacterCodingException e) {
            throw new TraceFormatException(file, "line " + (lineNo + 1), "not text, and not an ELF file: expected "
                    + "the output of nm -n [-S] or objdump -t, or an ELF executable");
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, "line " + lineNo, "bad hexadecimal number: " + e.getMessage());
        }
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
