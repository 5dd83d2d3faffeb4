package org.hetscope.analysis.mining.contention;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.sequences.SequenceDatabase;
import org.hetscope.analysis.mining.windows.FixedWindows;

/**
 * Plain transactions and sequences from an access trace, for mining without a contention method: fixed windows of
 * length delta; a window's transaction holds its events' symbols, plain and/or prefixed with the CPU (Algorithm
 * 3's item alphabet); the sequences are one per CPU and window, the CPU's symbols in time order (the per-CPU access
 * sequences of Example 3.6.2).
 */
public final class AccessWindows {
    private AccessWindows() {}

    public static FixedWindows windows(List<AccessEvent> et, long delta, Long origin) {
        long o = origin == null ? et.get(0).t() : origin;
        return new FixedWindows(o, delta, Math.max(o, et.get(et.size() - 1).t()));
    }

    public static TransactionDatabase transactions(List<AccessEvent> et, FixedWindows fw, EventVocabulary v,
                                                   boolean plainItems, boolean cpuItems) {
        List<Set<String>> ts = new ArrayList<>();
        for (int w = 0; w < fw.count(); w++) {
            ts.add(new LinkedHashSet<>());
        }
        for (AccessEvent e : et) {
            int w = fw.index(e.t());
            if (w < 0) {
                continue;
            }
            for (String s : v.symbols(e)) {
                if (plainItems) {
                    ts.get(w).add(s);
                }
                if (cpuItems) {
                    ts.get(w).add("CPU" + e.cpu() + "_" + s);
                }
            }
        }
        return TransactionDatabase.of(ts);
    }

    public static SequenceDatabase sequences(List<AccessEvent> et, FixedWindows fw, EventVocabulary v) {
        List<TreeMap<Integer, List<String>>> byWindow = new ArrayList<>();
        for (int w = 0; w < fw.count(); w++) {
            byWindow.add(new TreeMap<>());
        }
        for (AccessEvent e : et) {
            int w = fw.index(e.t());
            if (w >= 0) {
                byWindow.get(w).computeIfAbsent(e.cpu(), k -> new ArrayList<>()).addAll(v.symbols(e));
            }
        }
        List<List<String>> out = new ArrayList<>();
        byWindow.forEach(m -> out.addAll(m.values()));
        return SequenceDatabase.of(out);
    }
}
