package org.hetscope.cli.web;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.web.TraceView;
import org.hetscope.web.report.Plots;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope plot FILE VIEW -o x.svg|png}: one picture for a paper or a slide. */
@Command(name = "plot", description = "Draw one view of a store as SVG or PNG. Views: timeline, kernels, api, "
        + "utilisation.")
public final class PlotCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Store file (or a trace file to import first).")
    Path file;

    @Parameters(index = "1", paramLabel = "VIEW", description = "timeline, kernels, api or utilisation.")
    String view;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
            description = "Picture to write; .svg or .png.")
    Path output;

    @Option(names = "--width", defaultValue = "1400", description = "Width in pixels (default ${DEFAULT-VALUE}).")
    int width;

    @Override
    public Integer call() throws Exception {
        if (!Plots.VIEWS.contains(view)) {
            System.err.println("hetscope: unknown view '" + view + "'; views: " + Plots.VIEWS);
            return 2;
        }
        String name = output.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (!name.endsWith(".svg") && !name.endsWith(".png")) {
            System.err.println("hetscope: " + output + ": the output must end in .svg or .png");
            return 2;
        }
        if (width < 300 || width > 20_000) {
            System.err.println("hetscope: --width must be between 300 and 20000");
            return 2;
        }
        try (TraceView v = new TraceView(file.getFileName().toString(), StoreOpener.open(file))) {
            Plots.write(Plots.view(v, view, width), output);
        }
        System.err.println("hetscope: wrote " + output);
        return 0;
    }
}
