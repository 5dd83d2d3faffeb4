package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.Residency;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The residency intervals, the MSI checks and the count of MSI events naming an unknown handle or node, recounted
 * from the raw lines of the real StarPU traces and of damaged copies of them (handles and nodes unknown, SO lines
 * lost, SI on nodes never valid, unregisters before and inside intervals, lines out of time order, the file cut in
 * the middle of a line) by plain code written here: per (handle, node) a walk over its lines sorted by (time, line),
 * and per block a count of the valid replicas on every segment between two interval ends.
 */
class ResidencyRecountTest {
    /** The damages: each turns the lines of paje.trace into those of a damaged copy. */
    static final Map<String, UnaryOperator<List<String>>> DAMAGES = new TreeMap<>(Map.of(
            "intact", l -> l,
            "unknown-handle-and-node", ResidencyRecountTest::unknown,
            "si-without-so", ResidencyRecountTest::siWithoutSo,
            "unregisters", ResidencyRecountTest::unregisters,
            "out-of-order", ResidencyRecountTest::outOfOrder,
            "truncated", l -> l));

    static Stream<String[]> cases() {
        return Stream.of("chol-dmda-nb6", "chol-lws-nb12")
                .flatMap(f -> DAMAGES.keySet().stream().map(d -> new String[] {f, d}));
    }

    private static boolean msi(String[] f) {
        return f.length >= 5 && f[0].equals("9") && f[2].matches("SI|SS|SO|WU");
    }

    private static String[] fields(String line) {
        return line.trim().split("\\s+");
    }

    /** Every 20th MSI line names handle 0, and a memory manager without a memory node gets MSI events. */
    static List<String> unknown(List<String> lines) {
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String l : lines) {
            String[] f = fields(l);
            boolean isMsi = msi(f);
            if (isMsi && ++n % 20 == 0) {
                l = String.join("\t", f[0], f[1], f[2], f[3], "0");
            }
            out.add(l);
            if (f.length >= 4 && f[0].equals("7") && f[2].equals("mm1")) {
                out.add("7\t" + f[1] + "\tmm9\tMm\tmn1\tMEMMANAGER9");
            }
            if (isMsi && n % 23 == 0) {
                out.add(String.join("\t", "9", f[1], List.of("SO", "SS", "WU", "SI").get(n % 4), "mm9", f[4]));
            }
        }
        return out;
    }

    /** Every 5th SO or SS line is lost (its SI comes without it), and SI lines for a node where nothing is valid. */
    static List<String> siWithoutSo(List<String> lines) {
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String l : lines) {
            String[] f = fields(l);
            if (msi(f) && f[2].matches("SO|SS") && ++n % 5 == 0) {
                continue;
            }
            if (msi(f) && f[2].equals("SO") && n % 7 == 1) {
                out.add(String.join("\t", "9", f[1], "SI", f[3].equals("mm0") ? "mm1" : "mm0", f[4]));
            }
            out.add(l);
        }
        return out;
    }

    /**
     * Unregisters of some handles before any of their MSI events, and of others at the instant an interval opens
     * and twice a little later (inside the interval).
     */
    static List<String> unregisters(List<String> lines) {
        List<String> handles = new ArrayList<>();
        for (String l : lines) {
            String[] f = fields(l);
            if (msi(f) && !handles.contains(f[4])) {
                handles.add(f[4]);
            }
        }
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String l : lines) {
            String[] f = fields(l);
            out.add(l);
            if (f.length >= 4 && f[0].equals("7") && f[2].equals("mm1")) {
                for (int i = 0; i < 12 && i < handles.size(); i += 3) {
                    out.add("9\t" + f[1] + "\tunregister\tp\t" + handles.get(i));
                }
            }
            if (msi(f) && f[2].matches("SO|SS") && handles.indexOf(f[4]) % 3 == 1 && ++n % 3 == 0) {
                out.add("9\t" + f[1] + "\tunregister\tp\t" + f[4]);
                String later = new BigDecimal(f[1]).add(new BigDecimal("0.0005")).toPlainString();
                out.add("9\t" + later + "\tunregister\tp\t" + f[4]);
                out.add("9\t" + later + "\tunregister\tp\t" + f[4]);
            }
        }
        return out;
    }

    /** Some MSI lines swapped far apart in the file, and owners that turn shared at the same instant. */
    static List<String> outOfOrder(List<String> lines) {
        List<String> out = new ArrayList<>(lines);
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            if (msi(fields(out.get(i)))) {
                at.add(i);
            }
        }
        for (int k = 0; k + at.size() / 2 < at.size(); k += 17) {
            int a = at.get(k);
            int b = at.get(k + at.size() / 2);
            String x = out.get(a);
            out.set(a, out.get(b));
            out.set(b, x);
        }
        List<String> more = new ArrayList<>();
        int n = 0;
        for (String l : out) {
            more.add(l);
            String[] f = fields(l);
            if (msi(f) && f[2].equals("SO") && ++n % 6 == 0) {
                more.add(String.join("\t", "9", f[1], "SS", f[3], f[4]));
            }
        }
        return more;
    }

    /** A copy of the fixture's folder with the damage done to paje.trace. */
    static Path damaged(String fixture, String damage, Path dir) throws IOException {
        Path src = StarpuFixtureTest.fixture(fixture);
        Path to = Files.createDirectories(dir.resolve(fixture + "-" + damage));
        try (Stream<Path> files = Files.list(src)) {
            for (Path p : files.toList()) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
        Path trace = to.resolve("paje.trace");
        String text = Files.readString(trace);
        if (damage.equals("truncated")) {
            text = text.substring(0, text.length() * 3 / 5);
            if (text.endsWith("\n")) {
                text = text.substring(0, text.length() - 3);
            }
        } else {
            text = String.join("\n", DAMAGES.get(damage).apply(List.of(text.split("\n", -1))));
        }
        Files.writeString(trace, text);
        return to;
    }

    record Raw(long line, long ns, String[] f) {}

    /** The body lines of a trace as the test reads them: a last line without its end is no line. */
    static List<Raw> raw(Path trace) throws IOException {
        String text = Files.readString(trace, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.removeLast(); // after the last newline: empty, or a line cut short
        List<Raw> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String[] f = fields(lines.get(i));
            if (f.length < 3 || !f[0].matches("\\d+") || !f[1].matches("[0-9.]+")) {
                continue;
            }
            out.add(new Raw(i + 1, new BigDecimal(f[1]).movePointRight(6).setScale(0, RoundingMode.HALF_EVEN)
                    .longValueExact(), f));
        }
        return out;
    }

    /** What the test expects, recounted from the raw lines. */
    record Expected(Map<String, List<String>> residency, List<String> anomalies, long unknown, String firstUnknown) {}

    static Expected recount(Path trace) throws IOException {
        List<Raw> raw = raw(trace);
        long end = raw.stream().mapToLong(Raw::ns).max().orElse(0);
        Set<String> nodes = new HashSet<>();
        Map<String, List<Long>> unregisters = new HashMap<>();
        Map<String, List<long[]>> items = new TreeMap<>(); // "handle@mmN" -> {ns, line, state}
        long unknown = 0;
        Raw firstUnknown = null;
        for (Raw r : raw) {
            String[] f = r.f();
            if (f[0].equals("7") && f.length >= 4 && f[3].equals("Mn")) {
                nodes.add(f[2].substring(2));
            }
        }
        for (Raw r : raw) {
            String[] f = r.f();
            if (f[0].equals("9") && f.length >= 5 && f[2].equals("unregister")) {
                unregisters.computeIfAbsent(f[4], k -> new ArrayList<>()).add(r.ns());
            }
            if (!msi(f)) {
                continue;
            }
            if (f[4].equals("0") || !nodes.contains(f[3].substring(2))) {
                unknown++;
                if (firstUnknown == null || r.ns() < firstUnknown.ns()
                        || r.ns() == firstUnknown.ns() && r.line() < firstUnknown.line()) {
                    firstUnknown = r;
                }
                continue;
            }
            if (!f[2].equals("WU")) {
                items.computeIfAbsent(f[4] + "@" + f[3], k -> new ArrayList<>()).add(new long[] {r.ns(), r.line(),
                    f[2].equals("SO") ? 1 : f[2].equals("SS") ? 0 : -1});
            }
        }
        // per (handle, node): intervals {start, end, owner}; an unregister acts as an SI after its instant's lines
        Map<String, List<long[]>> intervals = new TreeMap<>();
        for (var e : items.entrySet()) {
            List<long[]> walk = new ArrayList<>(e.getValue());
            for (long u : unregisters.getOrDefault(e.getKey().substring(0, e.getKey().indexOf('@')), List.of())) {
                walk.add(new long[] {u, Long.MAX_VALUE, -1});
            }
            walk.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
            List<long[]> out = new ArrayList<>();
            long state = -1;
            long since = 0;
            for (long[] w : walk) {
                if (w[2] != state) {
                    if (state >= 0) {
                        out.add(new long[] {since, w[0], state});
                    }
                    state = w[2];
                    since = w[0];
                }
            }
            if (state >= 0) {
                out.add(new long[] {since, Math.max(end, since), state});
            }
            if (!out.isEmpty()) {
                intervals.put(e.getKey(), out);
            }
        }
        Map<String, List<String>> residency = new TreeMap<>();
        intervals.forEach((k, v) -> residency.put(k, v.stream().map(java.util.Arrays::toString).toList()));
        // per handle: the valid replicas and owners on each segment between two ends of intervals longer than 0
        List<String> anomalies = new ArrayList<>();
        StarpuFixtureTest.replicaSegments(intervals, true, (handle, start, dur, valid, owners) -> {
            if (valid == 0) {
                anomalies.add("no_valid_replica " + handle + " " + start + " " + dur + " handle " + handle);
            } else if (owners > 0 && valid > 1) {
                anomalies.add("owner_not_exclusive " + handle + " " + start + " " + dur + " handle " + handle + ": "
                        + owners + " owner(s), " + valid + " valid replicas");
            }
        });
        // each copy (DCo ... DCoE on the destination manager, by communication id) against the destination's
        // intervals of its handle: the one holding the copy's end that starts last
        Map<String, Long> copyStart = new HashMap<>();
        for (Raw r : raw) {
            String[] f = r.f();
            if (f[0].equals("22") && f.length >= 9 && f[2].equals("DCo")) {
                copyStart.put(f[3] + "/" + f[6], r.ns());
            }
            if (f[0].equals("22") && f.length >= 9 && f[2].equals("DCoE") && copyStart.containsKey(f[3] + "/" + f[6])
                    && !f[5].equals("0")) {
                long start = copyStart.remove(f[3] + "/" + f[6]);
                long copyEnd = r.ns();
                long[] hit = null;
                for (long[] a : intervals.getOrDefault(f[5] + "@" + f[3], List.of())) {
                    if (a[0] <= copyEnd && copyEnd <= a[1] && (hit == null || a[0] >= hit[0])) {
                        hit = a;
                    }
                }
                if (hit == null) {
                    anomalies.add("transfer_not_landing " + f[5] + " " + start + " " + (copyEnd - start));
                } else if (hit[0] < start) {
                    anomalies.add("transfer_to_valid_replica " + f[5] + " " + start + " " + (copyEnd - start));
                }
            }
        }
        return new Expected(residency, anomalies.stream().sorted().toList(), unknown,
                firstUnknown == null ? null : trace + ":" + firstUnknown.line() + " (" + firstUnknown.f()[2] + " "
                        + firstUnknown.f()[4] + ")");
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void residencyAnomaliesAndUnknownEventsMatchARecountOfTheRawLines(String fixture, String damage,
                                                                      @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path folder = damage.equals("intact") ? StarpuFixtureTest.fixture(fixture) : damaged(fixture, damage, dir);
        Path trace = folder.resolve("paje.trace");
        Expected expected = recount(trace);
        CollectingSink s = org.hetscope.formats.paje.StoredSink.read(folder);

        Map<Long, String> handle = s.memoryBlocks.stream().collect(Collectors.toMap(MemoryBlock::id,
                MemoryBlock::handle));
        Map<Long, String> node = new HashMap<>();
        s.memoryNodes.forEach(n -> node.put(n.id(), "mm" + n.name().replaceAll("\\D", "")));
        Map<String, List<long[]>> model = new TreeMap<>();
        for (Residency r : s.residencies) {
            model.computeIfAbsent(handle.get(r.blockId()) + "@" + node.get(r.nodeId()), k -> new ArrayList<>())
                    .add(new long[] {r.ts(), r.ts() + r.dur(), r.state().equals("owner") ? 1 : 0});
        }
        Map<String, List<String>> got = new TreeMap<>();
        model.forEach((k, v) -> got.put(k, v.stream().map(java.util.Arrays::toString).toList()));
        assertEquals(expected.residency(), got, "residency intervals, in start order per (handle, node)");

        List<String> anomalies = new ArrayList<>();
        for (Object[] r : s.extraRows.getOrDefault("starpu_anomaly", List.of())) {
            String kind = (String) r[0];
            String h = handle.get((Long) r[1]);
            if (kind.startsWith("transfer_")) {
                anomalies.add(kind + " " + h + " " + r[2] + " " + r[3]);
            } else if (!kind.equals("task_state_mismatch")) {
                anomalies.add(kind + " " + h + " " + r[2] + " " + r[3] + " " + r[4]);
            }
        }
        assertEquals(expected.anomalies(), anomalies.stream().sorted().toList());
        assertEquals(Long.toString(expected.anomalies().stream().filter(a -> a.startsWith("no_valid_replica "))
                .count()), s.info.get("starpu.check.no_valid_replica.count"));
        assertEquals(Long.toString(expected.anomalies().stream().filter(a -> a.startsWith("transfer_not_landing "))
                .count()), s.info.get("starpu.check.transfer_not_landing.count"));

        SkipTally.Entry unknown = s.skips.entries().stream().filter(e -> e.reason() == SkipReason.UNKNOWN_REFERENCE
                && "MSI event for an unknown handle or memory node".equals(e.detail())).findFirst().orElse(null);
        assertEquals(expected.unknown(), unknown == null ? 0 : unknown.count());
        assertEquals(expected.firstUnknown(), unknown == null ? null : unknown.where());
        if (damage.equals("unknown-handle-and-node")) {
            assertTrue(expected.unknown() > 0);
        }
        if (damage.equals("si-without-so")) {
            assertTrue(expected.anomalies().stream().anyMatch(a -> a.startsWith("transfer_not_landing ")));
        }
    }
}
