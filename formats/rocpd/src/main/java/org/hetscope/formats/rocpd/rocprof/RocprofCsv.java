package org.hetscope.formats.rocpd.rocprof;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hetscope.model.TraceFormatException;

/**
 * The per-dispatch counter file of rocprof v1/v2 ({@code results.csv}): one line per kernel dispatch with its
 * launch geometry, optional timestamps and one column per requested counter.
 */
public final class RocprofCsv {
    /** Columns that describe the dispatch; every other numeric column is a counter. */
    static final Set<String> DESCRIPTIVE = Set.of("index", "dispatch_id", "kernelname", "kernel_name", "gpu-id",
            "gpu_id", "queue-id", "queue_id", "queue-index", "queue_index", "pid", "tid", "grd", "grid_size", "wgr",
            "workgroup_size", "lds", "lds_size", "scr", "scratch_size", "vgpr", "arch_vgpr", "accum_vgpr", "sgpr",
            "fbar", "wave_size", "sig", "obj", "dispatchns", "beginns", "endns", "completens", "correlation_id",
            "agent_id", "kernel_id", "start_timestamp", "end_timestamp", "private_segment_size", "arch_vgpr_count",
            "accum_vgpr_count", "sgpr_count", "grid_size_x", "grid_size_y", "grid_size_z", "workgroup_size_x",
            "workgroup_size_y", "workgroup_size_z", "lds_block_size", "wave_front_size");

    /** One dispatch line. Times are null when the run had no timestamps. */
    public record Dispatch(long line, long index, String kernelName, Integer gpu, Long queue, Long pid, Long tid,
                           Long grid, Long workgroup, Long lds, Integer vgpr, Integer waveSize, Long begin, Long end,
                           Map<String, Double> counters) {}

    private RocprofCsv() {
    }

    public static boolean looksLike(Path file) throws IOException {
        if (!Files.isRegularFile(file) || !file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")) {
            return false;
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            if (header == null) {
                return false;
            }
            String h = header.toLowerCase(Locale.ROOT);
            return h.contains("kernelname") && h.contains("index") || h.contains("kernel_name")
                    && h.contains("dispatch_id") && !h.contains("counter_name");
        }
    }

    public static List<Dispatch> read(Path file) throws IOException, TraceFormatException {
        List<Dispatch> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String headerLine = r.readLine();
            if (headerLine == null) {
                throw new TraceFormatException(file, "line 1", "empty file: no rocprof header");
            }
            List<String> header = split(headerLine, file, 1);
            Map<String, Integer> at = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                at.put(header.get(i).trim().toLowerCase(Locale.ROOT), i);
            }
            Integer name = at.containsKey("kernelname") ? at.get("kernelname") : at.get("kernel_name");
            if (name == null) {
                throw new TraceFormatException(file, "line 1", "not a rocprof results file: no KernelName column");
            }
            List<Integer> counterColumns = new ArrayList<>();
            for (int i = 0; i < header.size(); i++) {
                if (!DESCRIPTIVE.contains(header.get(i).trim().toLowerCase(Locale.ROOT))) {
                    counterColumns.add(i);
                }
            }
            String line;
            long lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                List<String> f = split(line, file, lineNo);
                if (f.size() != header.size()) {
                    throw new TraceFormatException(file, "line " + lineNo, "has " + f.size() + " fields, the header "
                            + header.size());
                }
                Map<String, Double> counters = new LinkedHashMap<>();
                for (int c : counterColumns) {
                    String v = f.get(c).trim();
                    if (v.isEmpty()) {
                        continue;
                    }
                    try {
                        counters.put(header.get(c).trim(), Double.parseDouble(v));
                    } catch (NumberFormatException e) {
                        throw new TraceFormatException(file, "line " + lineNo, "counter " + header.get(c)
                                + " is not a number: '" + v + "'");
                    }
                }
                Long index = num(f, at, lineNo, file, "index", "dispatch_id");
                Long gpu = num(f, at, lineNo, file, "gpu-id", "gpu_id", "agent_id");
                Long wave = num(f, at, lineNo, file, "wave_size", "wave_front_size");
                Long vgpr = num(f, at, lineNo, file, "arch_vgpr", "vgpr", "arch_vgpr_count");
                out.add(new Dispatch(lineNo, index == null ? out.size() : index, f.get(name).trim(),
                        gpu == null ? null : gpu.intValue(), num(f, at, lineNo, file, "queue-id", "queue_id"),
                        num(f, at, lineNo, file, "pid"), num(f, at, lineNo, file, "tid"),
                        num(f, at, lineNo, file, "grd", "grid_size"),
                        num(f, at, lineNo, file, "wgr", "workgroup_size"),
                        num(f, at, lineNo, file, "lds", "lds_size", "lds_block_size"),
                        vgpr == null ? null : vgpr.intValue(), wave == null ? null : wave.intValue(),
                        num(f, at, lineNo, file, "beginns", "start_timestamp"),
                        num(f, at, lineNo, file, "endns", "end_timestamp"), counters));
            }
        }
        return out;
    }

    private static Long num(List<String> f, Map<String, Integer> at, long line, Path file, String... names)
            throws TraceFormatException {
        for (String n : names) {
            Integer i = at.get(n);
            if (i != null) {
                String v = f.get(i).trim();
                if (v.isEmpty()) {
                    return null;
                }
                try {
                    return Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new TraceFormatException(file, "line " + line, "column " + n + " is not an integer: '"
                            + v + "'");
                }
            }
        }
        return null;
    }

    /** Splits one CSV line; fields may be quoted with doubled quotes inside. */
    static List<String> split(String line, Path file, long lineNo) throws TraceFormatException {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cur.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (quoted) {
            throw new TraceFormatException(file, "line " + lineNo, "unterminated quoted field");
        }
        out.add(cur.toString());
        return out;
    }

    /** The kernel name without rocprof's decorations ({@code [clone .kd]}, a trailing {@code .kd}). */
    public static String baseName(String name) {
        String n = name.trim();
        int clone = n.indexOf(" [clone");
        if (clone >= 0) {
            n = n.substring(0, clone);
        }
        if (n.endsWith(".kd")) {
            n = n.substring(0, n.length() - 3);
        }
        return n;
    }
}
