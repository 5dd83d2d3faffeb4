package org.hetscope.analysis.mining.folding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.analysis.mining.memtrace.SymbolTable;

/**
 * Prints patterns the way the thesis tables do (spec section 6): the {@code CPUc_x} items of one symbol x become
 * {@code CPU[a,b] x} when the CPUs form a contiguous range ({@code CPU_i, CPU_j x} otherwise, {@code CPU_i x} for
 * one), and PCs of one function become {@code [0xMIN:0xMAX] fn (k of n)}, n being the instructions between the
 * bounds, so gaps stay visible. Only for display: machine-readable output keeps the unfolded items.
 */
public final class PatternFolding {
    private static final Pattern CPU_ITEM = Pattern.compile("CPU(\\d+)_(.+)");
    private static final Pattern PC = Pattern.compile("0x[0-9a-fA-F]+");

    private final SymbolTable symbols;
    private final int instructionBytes;

    /**
     * @param symbols          function names for PCs (null: PCs are not folded)
     * @param instructionBytes instruction size used to count the PCs a range could hold (4 on MIPS32)
     */
    public PatternFolding(SymbolTable symbols, int instructionBytes) {
        this.symbols = symbols;
        this.instructionBytes = instructionBytes;
    }

    /** The folded entries of a pattern, plain items first, then one group per CPU set. */
    public List<String> fold(List<String> items) {
        Map<String, TreeSet<Integer>> cpusOfBase = new TreeMap<>();
        List<String> plain = new ArrayList<>();
        for (String item : items) {
            Matcher m = CPU_ITEM.matcher(item);
            if (m.matches()) {
                cpusOfBase.computeIfAbsent(m.group(2), k -> new TreeSet<>()).add(Integer.parseInt(m.group(1)));
            } else {
                plain.add(item);
            }
        }
        Map<String, List<String>> byCpus = new TreeMap<>();
        cpusOfBase.forEach((base, cpus) -> byCpus.computeIfAbsent(cpuLabel(cpus), k -> new ArrayList<>()).add(base));
        List<String> out = new ArrayList<>(foldPcs(plain));
        byCpus.forEach((label, bases) -> foldPcs(bases).forEach(x -> out.add(label + " " + x)));
        return out;
    }

    /** {@link #fold} joined with ", ". */
    public String render(List<String> items) {
        return String.join(", ", fold(items));
    }

    static String cpuLabel(TreeSet<Integer> cpus) {
        if (cpus.size() == 1) {
            return "CPU_" + cpus.first();
        }
        if (cpus.last() - cpus.first() + 1 == cpus.size()) {
            return "CPU[" + cpus.first() + "," + cpus.last() + "]";
        }
        List<String> parts = new ArrayList<>();
        cpus.forEach(c -> parts.add("CPU_" + c));
        return String.join(", ", parts);
    }

    private List<String> foldPcs(List<String> symbolsIn) {
        Map<String, TreeSet<Long>> pcsByFunction = new TreeMap<>();
        List<String> rest = new ArrayList<>();
        for (String s : symbolsIn) {
            if (symbols != null && PC.matcher(s).matches()) {
                long pc = Long.parseUnsignedLong(s.substring(2), 16);
                String fn = symbols.function(pc);
                if (!SymbolTable.UNKNOWN.equals(fn)) {
                    pcsByFunction.computeIfAbsent(fn, k -> new TreeSet<>(Long::compareUnsigned)).add(pc);
                    continue;
                }
            }
            rest.add(s);
        }
        List<String> out = new ArrayList<>();
        pcsByFunction.forEach((fn, pcs) -> {
            if (pcs.size() == 1) {
                out.add("0x" + Long.toHexString(pcs.first()) + " " + fn);
            } else {
                long n = (pcs.last() - pcs.first()) / instructionBytes + 1;
                out.add("[0x" + Long.toHexString(pcs.first()) + ":0x" + Long.toHexString(pcs.last()) + "] " + fn
                        + " (" + pcs.size() + " of " + n + ")");
            }
        });
        out.addAll(rest);
        return out;
    }
}
