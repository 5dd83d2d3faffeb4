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
        + "timeline overview) that needs no server and no network.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Store file (or a trace file to import first).")
    Path file;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "HTML", description = "Report file to write.")
    Path output;

    @Override
    public Integer call() throws Exception {
        try (TraceView view = new TraceView(file.getFileName().toString(), StoreOpener.open(file))) {
            ReportWriter.write(view, output);
        }
        System.err.println("hetscope: wrote " + output);
        return 0;
    }
}
