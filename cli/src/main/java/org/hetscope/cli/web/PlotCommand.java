package org.hetscope.cli.web;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.web.StatisticsTables;
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
            description = "Picture to write; .svg or .png (never the input; an existing file only with --force).")
    Path output;

    @Option(names = "--force", description = "Replace the output file if it exists.")
    boolean force;

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
        String refused = OutputFile.refusal(output, force, file);
        if (refused != null) {
            System.err.println("hetscope: " + output + ": " + refused);
            return 2;
        }
        try (TraceView v = new TraceView(file.getFileName().toString(), StoreOpener.open(file))) {
            String missing = missing(v);
            if (missing != null) {
                // a picture with a title and nothing under it looks like a drawing bug; say what is missing
                System.err.println("hetscope: " + file + " has no " + missing + "; no " + view + " plot written");
                return 1;
            }
            Plots.Picture picture = Plots.view(v, view, width);
            OutputFile.write(output, to -> Plots.write(picture, to));
        }
        System.err.println("hetscope: wrote " + output);
        return 0;
    }

    /** What the view draws, named, when the store has none of it; null when it has some. */
    private String missing(TraceView v) {
        return switch (view) {
            case "timeline" -> v.treeOrder().stream().anyMatch(t -> t.slices() > 0) ? null : "slices";
            case "kernels" -> StatisticsTables.kernels(v.store()).size() > 0 ? null : "kernels";
            case "api" -> StatisticsTables.apiCalls(v.store()).size() > 0 ? null : "API calls";
            case "utilisation" -> StatisticsTables.utilisation(v.store()).size() > 0 ? null
                    : "kernels, copies or memsets (nothing to measure utilisation by)";
            default -> null;
        };
    }
}
