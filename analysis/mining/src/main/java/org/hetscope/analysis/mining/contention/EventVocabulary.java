package org.hetscope.analysis.mining.contention;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.windows.LatencyBins;

/**
 * How an access event becomes items. {@code joined}: one symbol of all selected fields, as method I's events
 * ("INST P_3090 fpadd_parts id_10", Tables 5.2/7.3); otherwise one item per field, as method II's transactions
 * (pc, function, latency label; Tables 5.3/7.6). Labels: PC {@code 0x10009d60}, data address {@code @0x10001a40},
 * page {@code P_3090}, node {@code id_10}, hops {@code hops_3}, latency {@code lat_10_20}; absent fields are left out.
 */
public record EventVocabulary(List<SymbolField> fields, LatencyBins bins, boolean joined) {
    /** Method I default: (type, page, function, target node) as one symbol. */
    public static final EventVocabulary METHOD_I = new EventVocabulary(
            List.of(SymbolField.TYPE, SymbolField.PAGE, SymbolField.FUNCTION, SymbolField.NODE),
            LatencyBins.METHOD_I, true);
    /** Method II default: pc, function and latency label (width 10) as separate items. */
    public static final EventVocabulary METHOD_II = new EventVocabulary(
            List.of(SymbolField.PC, SymbolField.FUNCTION, SymbolField.LATENCY), LatencyBins.METHOD_II, false);

    public EventVocabulary {
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("an event vocabulary needs at least one field");
        }
    }

    /** Parses a comma list of field names such as {@code pc,function,latency}. */
    public static List<SymbolField> parseFields(String list) {
        List<SymbolField> out = new ArrayList<>();
        for (String f : list.split(",")) {
            out.add(SymbolField.valueOf(f.strip().toUpperCase(Locale.ROOT)));
        }
        return out;
    }

    public List<String> symbols(AccessEvent e) {
        List<String> parts = new ArrayList<>(fields.size());
        for (SymbolField f : fields) {
            String label = label(f, e);
            if (label != null) {
                parts.add(label);
            }
        }
        if (joined) {
            return parts.isEmpty() ? List.of() : List.of(String.join(" ", parts));
        }
        return parts;
    }

    private String label(SymbolField f, AccessEvent e) {
        return switch (f) {
            case TYPE -> e.type().name();
            case PC -> hex(e.pc());
            case ADDRESS -> e.dataAddress() == null ? null : "@" + hex(e.dataAddress());
            case PAGE -> e.page() == null ? null : "P_" + e.page();
            case FUNCTION -> e.function();
            case NODE -> e.node() == null ? null : "id_" + e.node();
            case HOPS -> e.hops() == null ? null : "hops_" + e.hops();
            case LATENCY -> bins.label(e.latency());
        };
    }

    public static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
