package org.hetscope.cli.profiling;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.formats.otf2.Otf2Archive;
import org.hetscope.formats.otf2.Otf2Event;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hetscope otf2 print TRACE}: the decoded events of an OTF2 archive, merged in time order. */
@Command(name = "otf2", description = "Inspect OTF2 archives with hetscope's own reader.",
        subcommands = Otf2Command.Print.class)
public final class Otf2Command implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Prints the events like otf2-print: event, location, timestamp (ticks), attributes. */
    @Command(name = "print", description = "Print the events of an OTF2 archive (anchor file or its folder).")
    public static final class Print implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TRACE")
        Path trace;

        @Mixin
        OutputOptions output;

        @Override
        public Integer call() throws Exception {
            Path anchor = Files.isDirectory(trace) ? trace.resolve("traces.otf2") : trace;
            Otf2Archive a;
            try {
                a = Otf2Archive.read(anchor);
            } catch (TraceFormatException e) {
                System.err.println("hetscope: " + e.getMessage());
                return 1;
            }
            List<Otf2Event> all = new ArrayList<>();
            for (long loc : a.locations()) {
                all.addAll(a.events(loc));
            }
            all.sort(Comparator.comparingLong(Otf2Event::ticks).thenComparingLong(Otf2Event::location));
            Table.Builder t = Table.builder("OTF2 events (" + a.creator() + ", OTF2 " + a.version() + ", "
                    + a.timerResolution() + " ticks/s)", "event", "location", "timestamp", "attributes");
            for (Otf2Event e : all) {
                String attrs = switch (e.kind()) {
                    case ENTER, LEAVE -> "Region: \"" + a.regionName(e.ref()) + "\" <" + e.ref() + ">";
                    case MPI_SEND, MPI_ISEND -> "Receiver location: " + e.peer() + ", Communicator: " + e.ref()
                            + ", Tag: " + e.tag() + ", Length: " + e.bytes();
                    case MPI_RECV, MPI_IRECV -> "Sender location: " + e.peer() + ", Communicator: " + e.ref()
                            + ", Tag: " + e.tag() + ", Length: " + e.bytes();
                    case METRIC -> "Metric: " + e.ref() + ", values: " + java.util.Arrays.toString(e.values());
                    default -> "";
                };
                t.row(e.kind().name(), e.location(), e.ticks(), attrs);
            }
            TablePrinter.print(System.out, output.style(), t.build());
            return 0;
        }
    }
}
