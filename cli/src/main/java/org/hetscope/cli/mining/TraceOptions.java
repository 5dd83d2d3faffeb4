package org.hetscope.cli.mining;

import java.nio.file.Path;
import java.util.List;
import org.hetscope.analysis.mining.contention.EventVocabulary;
import org.hetscope.analysis.mining.windows.LatencyBins;
import picocli.CommandLine.Option;

/** Options for access-trace inputs (thesis Tables 2.1, 5.1, A.1): symbols, item fields, latency bins. */
public final class TraceOptions {
    @Option(names = "--symbols", paramLabel = "FILE", description = "The executable (ELF), or its nm -n [-S] or "
            + "objdump -t listing, to name the function of each PC.")
    Path symbols;

    @Option(names = "--fields", paramLabel = "LIST", description = "Event fields that become items: type, pc, "
            + "address, page, function, node, hops, latency (default depends on the command).")
    String fields;

    @Option(names = "--latency-width", defaultValue = "10", description = "Width of latency bins (default 10).")
    long latencyWidth;

    @Option(names = "--latency-max", defaultValue = "250", description = "Latencies at or above go to lat_MAX_inf.")
    long latencyMax;

    @Option(names = "--strict", description = "Stop at the first malformed row instead of skipping it.")
    boolean strict;

    @Option(names = "--instruction-bytes", defaultValue = "4", description = "Instruction size for PC ranges.")
    int instructionBytes;

    EventVocabulary vocabulary(String defaultFields, boolean joined) {
        return new EventVocabulary(EventVocabulary.parseFields(fields == null ? defaultFields : fields),
                new LatencyBins(latencyWidth, latencyMax), joined);
    }

    static List<String> csv(String s) {
        return s == null || s.isBlank() ? List.of() : List.of(s.split(","));
    }
}
