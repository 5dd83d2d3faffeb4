package org.hetscope.cli.mining;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.mining.contention.ContentionPattern;
import org.hetscope.analysis.mining.contention.FrequentEventWindows;
import org.hetscope.analysis.mining.contention.HighLatencyWindows;
import org.hetscope.analysis.mining.contention.UtilisationBound;
import org.hetscope.analysis.mining.folding.PatternFolding;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.SymbolTable;
import org.hetscope.analysis.mining.store.SlowEventWindows;
import org.hetscope.analysis.mining.windows.HitLatency;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope mine contention TRACE}: contention patterns of an access trace by method I (frequent events per
 * fixed window, utilisation score) or method II (windows around high latencies, closed itemsets).
 */
@Command(name = "contention", mixinStandardHelpOptions = true, description = "Contention patterns of an access trace (thesis methods I and II).")
public final class ContentionCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TRACE", description = "Access trace (Table 2.1, 5.1 or A.1 layout), or a "
            + "hetscope store (method 2 with slice durations as latencies).")
    Path file;

    @Option(names = "--seed-category", defaultValue = "kernel", description = "Store: category whose slow slices "
            + "(duration >= Q3, or --threshold ns) open windows.")
    String seedCategory;

    @Option(names = "--category", paramLabel = "LIST", description = "Store: categories whose slices fill the "
            + "windows (default all).")
    String categories;

    @Option(names = "--method", defaultValue = "2", description = "1: fixed windows + utilisation; 2: windows "
            + "centred on latencies >= Q3 (default).")
    int method;

    @Option(names = "--window", paramLabel = "LENGTH", description = "delta (method 1, default 2500) or omega "
            + "(method 2, default 200), in trace time units.")
    String window;

    @Option(names = "--origin", description = "Method 1: start of the first window (default: first event).")
    Long origin;

    @Option(names = "--min-sup-c", defaultValue = "2", description = "Method 1: CPUs an event needs in a window.")
    int minSupC;

    @Option(names = "--min-sup-w", defaultValue = "60%", description = "Method 1: windows a pattern needs (N|P%%).")
    String minSupW;

    @Option(names = "--bound", defaultValue = "ln2", description = "Method 1: ln2 or liu-layland (n(2^(1/n)-1), "
            + "n = CPUs in the trace).")
    String bound;

    @Option(names = "--epsilon", defaultValue = "65%", description = "Method 2: windows a pattern needs (N|P%%).")
    String epsilon;

    @Option(names = "--hit-latency", description = "Method 2: latencies at or below are cache hits, left out of Q3 "
            + "and never seeds. Default: derived from the trace's latencies (the minimum-error split of "
            + "ln(1 + latency), when its lower side is a majority of the accesses); a negative value keeps all.")
    Long hitLatency;

    @Option(names = "--max-patterns", defaultValue = "10000", description = "Method 2 and stores: when epsilon gives more "
            + "closed patterns than this, mine at the smallest higher support that gives at most this many, and "
            + "say so (0: no maximum; default ${DEFAULT-VALUE}).")
    int maxPatterns;

    @Option(names = "--threshold", description = "Method 2: high-latency threshold instead of Q3.")
    Double threshold;

    @Option(names = "--items", defaultValue = "both", description = "Method 2: plain, cpu or both. Method 1 always "
            + "prefixes with the CPU unless 'plain'.")
    String items;

    @Option(names = "--rank", defaultValue = "support", description = "support or time (time covered).")
    String rank;

    @Option(names = "--limit", defaultValue = "50", description = "Patterns printed (0: all).")
    int limit;

    @Mixin
    TraceOptions trace;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (MiningInput.detect(file) == MiningInput.Kind.STORE) {
            return store();
        }
        SymbolTable symbols = MiningInput.symbols(trace.symbols);
        List<AccessEvent> et = MiningInput.trace(file, symbols, trace.strict);
        PatternFolding folding = new PatternFolding(symbols, trace.instructionBytes);
        List<ContentionPattern> patterns;
        Table summary;
        if (method == 1) {
            long cpus = et.stream().mapToInt(AccessEvent::cpu).distinct().count();
            double b = "liu-layland".equals(bound) ? UtilisationBound.liuLayland((int) cpus) : UtilisationBound.LN2;
            FrequentEventWindows.Config c = new FrequentEventWindows.Config(
                    window == null ? 2500 : Durations.parse(window), origin, minSupC, MinSupport.parse(minSupW),
                    trace.vocabulary("type,page,function,node", true), !"plain".equals(items), b);
            FrequentEventWindows.Result r = FrequentEventWindows.analyse(et, c);
            patterns = r.patterns();
            summary = Table.builder("method I", "events", "cpus", "windows", "delta", "min_sup_w", "bound")
                    .row((long) et.size(), cpus, (long) r.windows().count(), c.delta(),
                            (long) c.minSupW().count(r.windows().count()), b).build();
        } else {
            long hit = -1;
            String hitMethod = "none (all accesses kept)";
            if (hitLatency != null) {
                hit = hitLatency;
                hitMethod = hitLatency < 0 ? "given: keep all" : "given";
            } else {
                java.util.OptionalLong d = HitLatency.derive(et.stream().mapToLong(AccessEvent::latency).toArray());
                if (d.isPresent()) {
                    hit = d.getAsLong();
                    hitMethod = "derived (minimum-error split of ln(1 + latency))";
                }
            }
            HighLatencyWindows.Config c = new HighLatencyWindows.Config(window == null ? 200 : Durations.parse(window),
                    hit, threshold, trace.vocabulary("pc,function,latency", false), !"cpu".equals(items),
                    !"plain".equals(items), MinSupport.parse(epsilon), Math.max(0, maxPatterns));
            HighLatencyWindows.Result r = HighLatencyWindows.analyse(et, c);
            patterns = r.patterns();
            summary = Table.builder("method II", "events", "hit_latency", "hit_latency_method", "threshold",
                            "threshold_method", "seeds", "windows", "trace_share", "omega", "epsilon",
                            "support_used")
                    .row((long) et.size(), hit < 0 ? null : hit, hitMethod, r.threshold(),
                            threshold == null ? "Q3 (type 7) of non-hit latencies" : "given", (long) r.seeds(),
                            (long) r.windows().size(), r.traceShare(), c.omega(), (long) r.supportRequested(),
                            (long) r.supportUsed()).build();
            if (r.supportUsed() != r.supportRequested()) {
                System.err.println("hetscope: epsilon " + r.supportRequested() + " windows gives more than "
                        + maxPatterns + " closed patterns, so those with support >= " + r.supportUsed() + " of "
                        + r.windows().size() + " windows were mined (--max-patterns 0 mines all, slowly)");
            }
        }
        List<ContentionPattern> ranked = new ArrayList<>(patterns);
        ranked.sort("time".equals(rank) ? ContentionPattern.BY_TIME
                : method == 1 ? java.util.Comparator.comparingInt(ContentionPattern::contendedWindows).reversed()
                        .thenComparing(ContentionPattern.BY_SUPPORT) : ContentionPattern.BY_SUPPORT);
        boolean text = output.style() == TablePrinter.Style.TEXT;
        List<String> cols = new ArrayList<>(List.of("rank", "support", "ratio", "time_covered"));
        if (method == 1) {
            cols.addAll(List.of("contended_windows", "max_utilisation"));
        }
        cols.add("pattern");
        if (!text) {
            cols.add("items");
        }
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < ranked.size() && (limit <= 0 || i < limit); i++) {
            ContentionPattern p = ranked.get(i);
            List<Object> row = new ArrayList<>(List.of((long) (i + 1), (long) p.support(), p.ratio(),
                    p.timeCovered()));
            if (method == 1) {
                row.add((long) p.contendedWindows());
                row.add(p.maxUtilisation());
            }
            row.add(folding.render(p.items()));
            if (!text) {
                row.add(String.join(" ", p.items()));
            }
            rows.add(row.toArray());
        }
        TablePrinter.print(System.out, output.style(), List.of(summary,
                new Table(shown(patterns.size(), rows.size()), cols, rows)));
        return 0;
    }

    private int store() throws Exception {
        SlowEventWindows.Options o = new SlowEventWindows.Options(seedCategory, TraceOptions.csv(categories),
                Durations.parse(window == null ? "1ms" : window), threshold, !"cpu".equals(items),
                !"plain".equals(items), MinSupport.parse(epsilon), Math.max(0, maxPatterns));
        SlowEventWindows.Result r;
        try (Store store = Store.open(file)) {
            r = SlowEventWindows.analyse(store, o);
        }
        Table summary = Table.builder("slow " + o.seedCategory() + " windows", "threshold_ns", "threshold_method",
                        "seeds", "windows", "omega_ns", "epsilon", "support_used")
                .row(r.threshold(), threshold == null ? "Q3 (type 7) of durations" : "given", (long) r.seeds(),
                        (long) r.windows().size(), o.omega(), (long) o.epsilon().count(r.windows().size()),
                        (long) r.supportUsed()).build();
        if (r.supportUsed() != r.supportRequested()) {
            System.err.println("hetscope: epsilon " + r.supportRequested() + " windows gives more than "
                    + maxPatterns + " closed patterns, so those with support >= " + r.supportUsed() + " of "
                    + r.windows().size() + " windows were mined (--max-patterns 0 mines all, slowly)");
        }
        List<ContentionPattern> ranked = new ArrayList<>(r.patterns());
        ranked.sort("time".equals(rank) ? ContentionPattern.BY_TIME : ContentionPattern.BY_SUPPORT);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < ranked.size() && (limit <= 0 || i < limit); i++) {
            ContentionPattern p = ranked.get(i);
            rows.add(new Object[] {(long) (i + 1), (long) p.support(), p.ratio(), p.timeCovered(),
                    String.join(" | ", p.items())});
        }
        TablePrinter.print(System.out, output.style(), List.of(summary, new Table(shown(r.patterns().size(),
                rows.size()), List.of("rank", "support", "ratio", "time_covered_ns", "pattern"), rows)));
        return 0;
    }

    /** The title of a ranked, capped pattern table: how many there are and how many were left out. */
    static String shown(int found, int printed) {
        return found + " closed patterns" + (printed < found ? ", top " + printed + " by --rank shown, "
                + (found - printed) + " left out (--limit 0 prints all)" : "");
    }
}
