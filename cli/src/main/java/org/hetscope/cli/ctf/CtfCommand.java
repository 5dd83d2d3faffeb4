package org.hetscope.cli.ctf;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.CtfProblem;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.formats.ctf.EventText;
import org.hetscope.formats.ctf.StreamStats;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope ctf dump|count TRACE}: look inside a CTF trace without importing it. */
@Command(name = "ctf", description = "Decode a CTF trace (LTTng, ROCm, barectf, ...) without importing it.",
        subcommands = {CtfCommand.Dump.class, CtfCommand.Count.class})
public final class CtfCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    static void reportDamage(CtfTrace t, PrintStream err) {
        List<CtfProblem> problems = t.problems();
        for (int i = 0; i < Math.min(problems.size(), 20); i++) {
            err.println("hetscope: " + problems.get(i));
        }
        if (problems.size() > 20) {
            err.println("hetscope: ... " + (problems.size() - 20) + " more damaged packets");
        }
        for (StreamStats s : t.streamStats()) {
            if (s.discardedEvents() > 0 || s.lostPackets() > 0) {
                err.println("hetscope: " + s.file() + ": " + s.discardedEvents() + " events discarded by the tracer, "
                        + s.lostPackets() + " packets lost");
            }
        }
    }

    /** One line per event in time order: ns timestamp, stream, name and fields. */
    @Command(name = "dump", description = "Print every event, one per line: time (ns), stream, name: { fields }.")
    static final class Dump implements Callable<Integer> {
        @Parameters(paramLabel = "TRACE", description = "CTF trace folder (holding 'metadata') or a folder of them.")
        Path trace;

        @Option(names = "--limit", description = "Stop after this many events.")
        long limit = Long.MAX_VALUE;

        @Override
        public Integer call() throws Exception {
            EventText text = new EventText();
            try (CtfTrace t = CtfTrace.open(trace); CtfTrace.Cursor c = t.cursor();
                 BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8),
                         1 << 16)) {
                long n = 0;
                while (n < limit && c.next()) {
                    CtfEvent e = c.event();
                    out.write(Long.toString(e.timestampNs()));
                    out.write(' ');
                    out.write(e.streamName());
                    out.write(' ');
                    out.write(text.format(e));
                    out.write('\n');
                    n++;
                }
                out.flush();
                reportDamage(t, System.err);
                return t.problems().isEmpty() ? 0 : 3;
            }
        }
    }

    /** Decodes every field of every event (streams in parallel) and prints the number of events per class. */
    @Command(name = "count", description = "Decode every field of every event without printing; "
            + "print events per event class and the total.")
    static final class Count implements Callable<Integer> {
        @Parameters(paramLabel = "TRACE", description = "CTF trace folder (holding 'metadata') or a folder of them.")
        Path trace;

        @Option(names = "--threads", description = "Decoding threads (default: available processors).")
        int threads = Runtime.getRuntime().availableProcessors();

        @Mixin
        OutputOptions output;

        @Override
        public Integer call() throws Exception {
            long t0 = System.nanoTime();
            try (CtfTrace t = CtfTrace.open(trace)) {
                List<CtfTrace.ClassCount> counts = t.count(threads);
                double seconds = (System.nanoTime() - t0) / 1e9;
                Table.Builder b = Table.builder("events per class", "event class", "events");
                long total = 0;
                for (CtfTrace.ClassCount c : counts) {
                    b.row(c.name(), c.events());
                    total += c.events();
                }
                b.row("total", total);
                TablePrinter.print(System.out, output.style(), b.build());
                System.err.printf("hetscope: %d events in %.3f s (%.0f events/s), %d stream files%n", total, seconds,
                        total / seconds, t.streamFiles().size());
                reportDamage(t, System.err);
                return t.problems().isEmpty() ? 0 : 3;
            }
        }
    }
}
