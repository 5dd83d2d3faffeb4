package org.hetscope.cli.mining;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.Eclat;
import org.hetscope.analysis.mining.itemsets.FimiReader;
import org.hetscope.analysis.mining.itemsets.Lcm;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.sequences.PeriodicPattern;
import org.hetscope.analysis.mining.sequences.PeriodicPatterns;
import org.hetscope.analysis.mining.sequences.PrefixSpan;
import org.hetscope.analysis.mining.sequences.SequenceDatabase;
import org.hetscope.analysis.mining.sequences.SequentialPattern;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Table;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope mine transactions FILE}: the miners on their own, over a FIMI transaction file; prints one pattern
 * per line as {@code items... (support)}, or a table with {@code --csv}/{@code --json}.
 */
@Command(name = "transactions", mixinStandardHelpOptions = true, description = "Mine a FIMI transaction file (one transaction per line).")
public final class TransactionsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    static final class What {
        @Option(names = "--closed", description = "Closed frequent itemsets (LCM; the default).")
        boolean closed;
        @Option(names = "--all", description = "All frequent itemsets (Eclat).")
        boolean all;
        @Option(names = "--sequences", description = "Frequent sequential patterns (PrefixSpan), lines as sequences.")
        boolean sequences;
        @Option(names = "--periodic", description = "Periodic itemsets: maximal cycles start, start+p, ... over the "
                + "lines in order (see --period, --min-length).")
        boolean periodic;
    }

    @ArgGroup(exclusive = true)
    What what = new What();

    @Option(names = "--period", defaultValue = "1-4", paramLabel = "P|MIN-MAX",
            description = "--periodic: period or range of periods, in lines (default 1-4).")
    String period;

    @Option(names = "--min-length", defaultValue = "2", description = "--periodic: shortest cycle reported.")
    int minLength;

    @Option(names = "--min-support", paramLabel = "N|P%",
            description = "Least support: a transaction count, or a percentage of the transactions (rounded up).")
    String minSupport;

    @Option(names = "--max-length", defaultValue = "8", description = "Longest sequence reported (--sequences).")
    int maxLength;

    @Option(names = "--algorithm", defaultValue = "fast",
            description = "fast (LCM/Eclat) or apriori (the slow reference).")
    String algorithm;

    @Option(names = "--count", description = "Print only how many patterns there are.")
    boolean count;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (what.periodic) {
            return periodic();
        }
        if (minSupport == null) {
            throw new IllegalArgumentException("--min-support is required");
        }
        MinSupport min = MinSupport.parse(minSupport);
        List<Object[]> rows = new ArrayList<>();
        if (what.sequences) {
            List<List<String>> seqs = FimiReader.readSequences(file);
            for (SequentialPattern p : PrefixSpan.mine(SequenceDatabase.of(seqs), min, maxLength)) {
                rows.add(new Object[] {String.join(" ", p.events()), (long) p.support(),
                        seqs.isEmpty() ? 0.0 : (double) p.support() / seqs.size()});
            }
        } else {
            TransactionDatabase db = FimiReader.read(file);
            if (count && !"apriori".equalsIgnoreCase(algorithm)) {
                // Counted as they are found: nothing is kept, so huge outputs need no memory.
                int c = min.count(db.size());
                System.out.println(what.all ? Eclat.mine(db, c, (i, n, s) -> { }) : Lcm.mine(db, c, (i, n, s) -> { }));
                return 0;
            }
            ItemsetMiner.Algorithm alg = "apriori".equalsIgnoreCase(algorithm) ? ItemsetMiner.Algorithm.APRIORI
                    : ItemsetMiner.Algorithm.FAST;
            ItemsetMiner.Kind kind = what.all ? ItemsetMiner.Kind.FREQUENT : ItemsetMiner.Kind.CLOSED;
            for (Itemset s : ItemsetMiner.mine(db, kind, min, alg)) {
                rows.add(new Object[] {String.join(" ", s.items()), (long) s.support(), s.ratio(db.size())});
            }
        }
        if (count) {
            System.out.println(rows.size());
            return 0;
        }
        if (output.style() == TablePrinter.Style.TEXT) {
            StringBuilder sb = new StringBuilder();
            for (Object[] r : rows) {
                sb.append(r[0]).append(" (").append(r[1]).append(")\n");
            }
            System.out.print(sb);
            System.out.flush();
            return 0;
        }
        TablePrinter.print(System.out, output.style(), new Table("patterns", List.of("items", "support", "ratio"),
                rows));
        return 0;
    }

    private int periodic() throws Exception {
        String[] range = period.split("-");
        int lo = Integer.parseInt(range[0].strip());
        int hi = range.length > 1 ? Integer.parseInt(range[1].strip()) : lo;
        List<Object[]> rows = new ArrayList<>();
        for (PeriodicPattern p : PeriodicPatterns.mine(FimiReader.read(file), lo, hi, minLength)) {
            rows.add(new Object[] {String.join(" ", p.items()), (long) p.start(), (long) p.period(),
                    (long) p.length()});
        }
        if (output.style() == TablePrinter.Style.TEXT) {
            rows.forEach(r -> System.out.println(r[0] + " (start " + r[1] + ", period " + r[2] + ", length " + r[3]
                    + ")"));
            return 0;
        }
        TablePrinter.print(System.out, output.style(), new Table("periodic patterns",
                List.of("items", "start", "period", "length"), rows));
        return 0;
    }
}
