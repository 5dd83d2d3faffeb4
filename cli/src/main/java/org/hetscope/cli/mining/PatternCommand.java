package org.hetscope.cli.mining;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import org.hetscope.analysis.mining.contention.AccessWindows;
import org.hetscope.analysis.mining.folding.PatternFolding;
import org.hetscope.analysis.mining.itemsets.FimiReader;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.SymbolTable;
import org.hetscope.analysis.mining.sequences.PrefixSpan;
import org.hetscope.analysis.mining.sequences.SequenceDatabase;
import org.hetscope.analysis.mining.sequences.SequentialPattern;
import org.hetscope.analysis.mining.store.StoreWindows;
import org.hetscope.analysis.mining.windows.FixedWindows;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope mine itemsets|closed|sequences FILE}: patterns over fixed windows of a store or an access trace,
 * or over the lines of a FIMI file; ranked by support or by the time the windows holding them cover.
 */
public abstract class PatternCommand implements Callable<Integer> {
    /** Which patterns. */
    enum Mode { FREQUENT, CLOSED, SEQUENCES }

    @Parameters(index = "0", paramLabel = "FILE", description = "A hetscope store, an access trace or a FIMI file.")
    Path file;

    @Option(names = "--input", defaultValue = "auto", description = "auto, store, trace or fimi.")
    String input;

    @Option(names = "--min-support", required = true, paramLabel = "N|P%",
            description = "Least support: a count of windows (transactions), or a percentage of them.")
    String minSupport;

    @Option(names = "--window", paramLabel = "LENGTH", description = "Window length: ns for stores (units ns, us, "
            + "ms, s allowed; default 10ms), trace time units for access traces (default 2500).")
    String window;

    @Option(names = "--origin", description = "Start of the first window (default: the first event).")
    Long origin;

    @Option(names = "--category", paramLabel = "LIST", description = "Store: slice categories to use "
            + "(e.g. kernel,api,memcpy,task; default all).")
    String categories;

    @Option(names = "--instants", description = "Store: count instants as events too.")
    boolean instants;

    @Option(names = "--vocabulary", defaultValue = "name",
            description = "Store: item of an event: name, category-name or category.")
    String vocabulary;

    @Option(names = "--track-prefix", description = "Store: prefix items with their track (stream, thread).")
    boolean trackPrefix;

    @Option(names = "--items", defaultValue = "both", description = "Trace: plain, cpu (CPU-prefixed) or both.")
    String items;

    @Option(names = "--max-length", defaultValue = "6", description = "Longest sequence reported.")
    int maxLength;

    @Option(names = "--rank", defaultValue = "support", description = "support or time (time covered).")
    String rank;

    @Option(names = "--limit", defaultValue = "100", description = "Patterns printed (0: all).")
    int limit;

    @Mixin
    TraceOptions trace;

    @Mixin
    OutputOptions output;

    abstract Mode mode();

    /** {@code hetscope mine itemsets}. */
    @Command(name = "itemsets", mixinStandardHelpOptions = true, description = "All frequent itemsets over windows of a store, trace or FIMI file.")
    public static final class Itemsets extends PatternCommand {
        @Override
        Mode mode() {
            return Mode.FREQUENT;
        }
    }

    /** {@code hetscope mine closed}. */
    @Command(name = "closed", mixinStandardHelpOptions = true, description = "Closed frequent itemsets over windows of a store, trace or FIMI file.")
    public static final class Closed extends PatternCommand {
        @Override
        Mode mode() {
            return Mode.CLOSED;
        }
    }

    /** {@code hetscope mine sequences}. */
    @Command(name = "sequences", mixinStandardHelpOptions = true, description = "Frequent sequential patterns (PrefixSpan) over windows.")
    public static final class Sequences extends PatternCommand {
        @Override
        Mode mode() {
            return Mode.SEQUENCES;
        }
    }

    private record Row(List<String> items, String shown, int support, long time) {}

    @Override
    public Integer call() throws Exception {
        MinSupport min = MinSupport.parse(minSupport);
        MiningInput.Kind kind = MiningInput.resolve(file, MiningInput.Kind.valueOf(input.toUpperCase()));
        TransactionDatabase db = null;
        SequenceDatabase sdb = null;
        ToLongFunction<List<String>> time = x -> 0;
        PatternFolding folding = null;
        String title;
        switch (kind) {
            case STORE -> {
                StoreWindows.Windows w;
                try (Store store = Store.open(file)) {
                    w = StoreWindows.read(store, new StoreWindows.Options(
                            Durations.parse(window == null ? "10ms" : window), TraceOptions.csv(categories),
                            instants, StoreWindows.Vocabulary.valueOf(vocabulary.toUpperCase().replace('-', '_')),
                            trackPrefix));
                }
                db = mode() == Mode.SEQUENCES ? null : w.transactions();
                sdb = mode() == Mode.SEQUENCES ? w.sequenceDatabase() : null;
                time = w::timeCovered;
                title = w.sequences().size() + " windows of " + w.window() + " ns";
            }
            case TRACE -> {
                SymbolTable symbols = MiningInput.symbols(trace.symbols);
                List<AccessEvent> et = MiningInput.trace(file, symbols, trace.strict);
                FixedWindows fw = AccessWindows.windows(et, window == null ? 2500 : Durations.parse(window), origin);
                var v = trace.vocabulary(mode() == Mode.SEQUENCES ? "pc" : "pc,function,latency",
                        mode() == Mode.SEQUENCES);
                if (mode() == Mode.SEQUENCES) {
                    sdb = AccessWindows.sequences(et, fw, v);
                } else {
                    db = AccessWindows.transactions(et, fw, v, !"cpu".equals(items), !"plain".equals(items));
                    TransactionDatabase tdb = db;
                    time = x -> windowTime(tdb, fw, x);
                }
                folding = new PatternFolding(symbols, trace.instructionBytes);
                title = fw.count() + " windows of " + fw.delta();
            }
            default -> {
                if (mode() == Mode.SEQUENCES) {
                    sdb = SequenceDatabase.of(FimiReader.readSequences(file));
                } else {
                    db = FimiReader.read(file);
                }
                title = (db != null ? db.size() : sdb.size()) + " transactions";
            }
        }
        List<Row> rows = new ArrayList<>();
        if (mode() == Mode.SEQUENCES) {
            for (SequentialPattern p : PrefixSpan.mine(sdb, min, maxLength)) {
                rows.add(new Row(p.events(), String.join(" -> ", p.events()), p.support(), 0));
            }
        } else {
            List<Itemset> sets = mode() == Mode.CLOSED ? ItemsetMiner.closed(db, min) : ItemsetMiner.frequent(db, min);
            for (Itemset s : sets) {
                String shown = folding == null ? String.join(" ", s.items()) : folding.render(s.items());
                rows.add(new Row(s.items(), shown, s.support(), time.applyAsLong(s.items())));
            }
        }
        if ("time".equals(rank)) {
            rows.sort(Comparator.comparingLong(Row::time).reversed().thenComparing(Comparator.comparingInt(
                    Row::support).reversed()));
        }
        int n = mode() == Mode.SEQUENCES ? sdb.size() : db.size();
        boolean text = output.style() == TablePrinter.Style.TEXT;
        List<String> cols = new ArrayList<>(List.of("rank", "support", "ratio", "time_covered", "size", "pattern"));
        if (!text) {
            cols.add("items");
        }
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < rows.size() && (limit <= 0 || i < limit); i++) {
            Row r = rows.get(i);
            List<Object> row = new ArrayList<>(List.of((long) (i + 1), (long) r.support(),
                    n == 0 ? 0.0 : (double) r.support() / n, r.time(), (long) r.items().size(), r.shown()));
            if (!text) {
                row.add(String.join(" ", r.items()));
            }
            out.add(row.toArray());
        }
        TablePrinter.print(System.out, output.style(), new Table(rows.size() + " patterns, " + title
                + ", min support " + min + " = " + min.count(n), cols, out));
        return 0;
    }

    private static long windowTime(TransactionDatabase db, FixedWindows fw, List<String> items) {
        int[] ids = items.stream().mapToInt(db.dictionary()::find).sorted().toArray();
        long total = 0;
        for (int t = 0; t < db.size(); t++) {
            if (db.contains(t, ids)) {
                total += fw.end(t) - fw.start(t);
            }
        }
        return total;
    }
}
