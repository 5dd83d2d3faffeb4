package org.hetscope.cli.mining;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.AccessTraceReader;
import org.hetscope.analysis.mining.memtrace.SymbolTable;
import org.hetscope.model.TraceFormatException;

/** Recognises what a mining input is (store, access trace or FIMI transactions) and loads access traces. */
final class MiningInput {
    /** The kinds of input {@code hetscope mine} reads. */
    enum Kind { AUTO, STORE, TRACE, FIMI }

    private MiningInput() {}

    static Kind detect(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such file");
        }
        byte[] head = new byte[12];
        try (InputStream in = Files.newInputStream(file)) {
            int n = in.readNBytes(head, 0, head.length);
            if (n == 12 && head[8] == 'D' && head[9] == 'U' && head[10] == 'C' && head[11] == 'K') {
                return Kind.STORE;
            }
        }
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            in = new GZIPInputStream(in);
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int looked = 0;
            while ((line = r.readLine()) != null && looked < 50) {
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                looked++;
                String[] f = s.split("[\\s,]+");
                if (!Character.isDigit(f[0].charAt(0))) {
                    continue;
                }
                boolean raw = (f.length == 6 || f.length == 7) && f[2].toLowerCase().startsWith("0x");
                boolean noc = f.length == 8 && f[4].toLowerCase().startsWith("0x");
                return raw || noc ? Kind.TRACE : Kind.FIMI;
            }
        }
        return Kind.FIMI;
    }

    static Kind resolve(Path file, Kind asked) throws IOException {
        return asked == Kind.AUTO ? detect(file) : asked;
    }

    static SymbolTable symbols(Path nm) throws IOException, TraceFormatException {
        return nm == null ? null : SymbolTable.read(nm);
    }

    /** Reads an access trace, reporting skipped rows on stderr; strict mode stops at the first bad row. */
    static List<AccessEvent> trace(Path file, SymbolTable symbols, boolean strict)
            throws IOException, TraceFormatException {
        List<AccessTraceReader.Report> reports = new ArrayList<>();
        List<AccessEvent> et = new AccessTraceReader(symbols, strict).read(file, reports);
        AccessTraceReader.Report r = reports.get(0);
        if (r.skipped() > 0) {
            System.err.println("hetscope: " + file + ": skipped " + r.skipped() + " malformed row(s); first: "
                    + r.firstProblem());
        }
        if (et.isEmpty()) {
            throw new IOException(file + ": no access events");
        }
        return et;
    }
}
