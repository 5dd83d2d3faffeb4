package org.hetscope.cli.web;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.web.TraceView;
import org.hetscope.web.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope report FILE -o report.html}: one self-contained HTML file to share. */
@Command(name = "report", description = "Write a self-contained HTML report (summary, statistics, utilisation, "
        + "timeline overview; with --diff, a comparison with a second run) that needs no server and no network.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Store file (or a trace file to import first).")
    Path file;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "HTML", description = "Report file to write "
            + "(never an input; an existing file only with --force).")
    Path output;

    @Option(names = "--force", description = "Replace the output file if it exists.")
    boolean force;

    @Option(names = "--diff", paramLabel = "B", description = "Add a section comparing FILE (A) with this second "
            + "run (a store or a trace): the tables of 'hetscope diff A B', with the same figures.")
    Path diff;

    @Option(names = "--alpha", defaultValue = "0.05", description = "With --diff: significance level of the U test "
            + "(default: ${DEFAULT-VALUE}).")
    double alpha;

    @Override
    public Integer call() throws Exception {
        if (!(alpha > 0 && alpha < 1)) {
            System.err.println("hetscope: --alpha must lie between 0 and 1, not " + alpha);
            return 2;
        }
        String refused = OutputFile.refusal(output, force, file, diff);
        if (refused != null) {
            System.err.println("hetscope: " + output + ": " + refused);
            return 2;
        }
        try (TraceView view = new TraceView(file.getFileName().toString(), StoreOpener.open(file))) {
            if (diff == null) {
                OutputFile.write(output, to -> ReportWriter.write(view, to));
            } else {
                try (org.hetscope.store.Store other = StoreOpener.open(diff)) {
                    OutputFile.write(output, to -> ReportWriter.write(view, diff.getFileName().toString(), other,
                            alpha, to));
                }
            }
        }
        System.err.println("hetscope: wrote " + output);
        return 0;
    }
}
