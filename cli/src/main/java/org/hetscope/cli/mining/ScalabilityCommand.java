package org.hetscope.cli.mining;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.mining.folding.PatternFolding;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.SymbolTable;
import org.hetscope.analysis.mining.scalability.Run;
import org.hetscope.analysis.mining.scalability.ScalabilityAnalysis;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope mine scalability RUN1 RUN2 ...}: hot addresses of each run (2-means on %time and %accesses),
 * growth of the hot-normal distance against the smallest run, and the address sets hot on at least min_p runs.
 */
@Command(name = "scalability", mixinStandardHelpOptions = true, description = "Scalability bottlenecks across runs with different core counts.")
public final class ScalabilityCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RUN", description = "Access traces of the same program.")
    List<Path> runs;

    @Option(names = "--cores", split = ",", description = "Core count of each run (default: CPUs seen in it).")
    List<Integer> cores;

    @Option(names = "--min-p", defaultValue = "25%", description = "Runs a hot set needs (N|P%%).")
    String minP;

    @Option(names = "--data-address", description = "Use data addresses instead of PCs.")
    boolean dataAddress;

    @Option(names = "--drift", description = "Match addresses across runs as function+offset (needs --symbols).")
    boolean drift;

    @Mixin
    TraceOptions trace;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (cores != null && cores.size() != runs.size()) {
            throw new IllegalArgumentException("--cores needs one count per run (" + runs.size() + ")");
        }
        SymbolTable symbols = MiningInput.symbols(trace.symbols);
        if (drift && symbols == null) {
            throw new IllegalArgumentException("--drift needs --symbols");
        }
        List<Run> in = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            List<AccessEvent> et = MiningInput.trace(runs.get(i), symbols, trace.strict);
            int n = cores != null ? cores.get(i) : (int) et.stream().mapToInt(AccessEvent::cpu).distinct().count();
            in.add(new Run(runs.get(i).getFileName().toString(), n, et));
        }
        ScalabilityAnalysis.Result r = ScalabilityAnalysis.analyse(in,
                new ScalabilityAnalysis.Config(dataAddress, MinSupport.parse(minP), drift ? symbols : null));
        PatternFolding folding = new PatternFolding(symbols, trace.instructionBytes);
        Table.Builder runsTable = Table.builder("runs (baseline: " + r.baseline().run().name()
                        + (r.baselineIsSingleCore() ? ", 1 core" : ", smallest run: no 1-core trace") + ")",
                "run", "cores", "addresses", "hot", "normal", "centre_distance", "growth_rate", "hot_addresses");
        for (ScalabilityAnalysis.RunResult rr : r.runs()) {
            runsTable.row(rr.run().name(), (long) rr.run().cores(), (long) rr.features().size(), (long) rr.hotSize(),
                    (long) rr.normalSize(), rr.clustering().hot() < 0 ? null : rr.clustering().centreDistance(),
                    Double.isNaN(rr.growthRate()) ? "undefined" : String.format("%.6f", rr.growthRate()),
                    folding.render(new ArrayList<>(rr.hot())));
        }
        Table.Builder sets = Table.builder("hot sets", "rank", "runs", "support", "hotspot", "pct_time",
                "pct_accesses", "pattern", "items");
        int rank = 1;
        for (ScalabilityAnalysis.HotSet h : r.hotSets()) {
            sets.row((long) rank++, String.join(",", h.runs()), (long) h.itemset().support(), h.hotspot(),
                    series(h.pctTime()), series(h.pctAccesses()), folding.render(h.itemset().items()),
                    String.join(" ", h.itemset().items()));
        }
        TablePrinter.print(System.out, output.style(), List.of(runsTable.build(), sets.build()));
        return 0;
    }

    private static String series(double[] v) {
        List<String> parts = new ArrayList<>();
        for (double d : v) {
            parts.add(Double.isNaN(d) ? "-" : String.format("%.2f", d));
        }
        return String.join("/", parts);
    }
}
