package org.hetscope.cli;

import org.hetscope.store.Store;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --from} / {@code --to} window shared by the commands that analyse a part of a trace. Times follow
 * {@link TraceTime}: from the trace start by default, with units, {@code @} for the trace's own clock.
 */
public final class TimeWindow {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--from", paramLabel = "TIME", converter = TraceTime.Converter.class,
            description = "Window start, from the trace start: 41.4s, 250ms, 10us, 5ns (a bare number is ns); "
                    + "@T for the trace's own clock (default: the trace start).")
    TraceTime from;

    @Option(names = "--to", paramLabel = "TIME", converter = TraceTime.Converter.class,
            description = "Window end, as --from (default: the trace end).")
    TraceTime to;

    /** Whether either bound was given. */
    public boolean given() {
        return from != null || to != null;
    }

    /**
     * The window [from, to) on the trace's clock; unset bounds are the given defaults. Warns when it reaches outside
     * the trace; an empty or reversed window given by the user is a usage error (exit 2).
     */
    public long[] resolve(long[] bounds, long defaultFrom, long defaultTo) {
        long a = from == null ? defaultFrom : from.resolve(bounds[0]);
        long b = to == null ? defaultTo : to.resolve(bounds[0]);
        if (b <= a && given()) {
            throw new ParameterException(spec.commandLine(), "the window is empty: --to (" + describe(to, b, bounds)
                    + ") is not after --from (" + describe(from, a, bounds) + ")");
        }
        if (given()) {
            TraceTime.warnOutside(a, b, bounds);
        }
        return new long[] {a, b};
    }

    /** The window over the store's trace bounds ({@link TraceTime#traceBounds}), which are also its default. */
    public long[] resolve(Store store) {
        long[] bounds = TraceTime.traceBounds(store);
        return resolve(bounds, bounds[0], bounds[1]);
    }

    private static String describe(TraceTime given, long resolved, long[] bounds) {
        String at = resolved < bounds[0] ? "-" + Units.duration(bounds[0] - resolved, true)
                : Units.duration(resolved - bounds[0], true);
        return given == null ? "by default " + at + " from the trace start" : given + " = " + at;
    }
}
