package org.hetscope.cli.mining;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.AccessTraceGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope mine generate OUT}: a multi-core access trace with planted contention, and its nm listing. */
@Command(name = "generate", mixinStandardHelpOptions = true, description = "Write a multi-core access trace with planted contention (Table A.1).")
public final class GenerateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "OUT")
    Path out;

    @Option(names = "--cores", defaultValue = "4")
    int cores;

    @Option(names = "--iterations", defaultValue = "200", description = "Barrier-separated iterations per core.")
    int iterations;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(names = "--symbols-out", paramLabel = "NM", description = "Also write the nm -n -S listing here.")
    Path symbolsOut;

    @Override
    public Integer call() throws Exception {
        List<AccessEvent> et = AccessTraceGenerator.generate(new AccessTraceGenerator.Config(cores, iterations, seed));
        AccessTraceGenerator.writeTrace(out, et);
        if (symbolsOut != null) {
            AccessTraceGenerator.writeSymbols(symbolsOut);
        }
        System.err.println("hetscope: wrote " + et.size() + " events on " + cores + " cores to " + out);
        return 0;
    }
}
