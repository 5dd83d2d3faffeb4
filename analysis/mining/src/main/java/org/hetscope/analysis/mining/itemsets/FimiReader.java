package org.hetscope.analysis.mining.itemsets;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.TraceFormatException;

/**
 * Reads transaction files in the FIMI format: one transaction per line, items separated by blanks (spaces or
 * tabs). Items are taken as names, so numbers and words both work. Blank lines are empty transactions, as in the
 * FIMI repository files; a NUL byte (a binary file) is refused with the line it was found on.
 */
public final class FimiReader {
    private FimiReader() {}

    public static TransactionDatabase read(Path file) throws IOException, TraceFormatException {
        TransactionDatabase.Builder b = TransactionDatabase.builder();
        lines(file, b::add);
        return b.build();
    }

    /** The lines as sequences: items in the order written, repeats kept (for sequential pattern mining). */
    public static List<List<String>> readSequences(Path file) throws IOException, TraceFormatException {
        List<List<String>> out = new ArrayList<>();
        lines(file, items -> out.add(List.copyOf(items)));
        return out;
    }

    private static void lines(Path file, java.util.function.Consumer<List<String>> b)
            throws IOException, TraceFormatException {
        long lineNo = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            List<String> items = new ArrayList<>();
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.indexOf('\0') >= 0) {
                    throw new TraceFormatException(file, "line " + lineNo, "binary data in a FIMI transaction file");
                }
                items.clear();
                int i = 0;
                int n = line.length();
                while (i < n) {
                    while (i < n && isBlank(line.charAt(i))) {
                        i++;
                    }
                    int s = i;
                    while (i < n && !isBlank(line.charAt(i))) {
                        i++;
                    }
                    if (i > s) {
                        items.add(line.substring(s, i));
                    }
                }
                b.accept(items);
            }
        } catch (java.nio.charset.MalformedInputException e) {
            throw new TraceFormatException(file, "line " + (lineNo + 1), "not UTF-8 text");
        }
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }
}
