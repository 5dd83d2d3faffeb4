package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The StarPU tables the store derives from a read's staging tables ({@code TraceSink.derive}), against a recount
 * from the raw files by plain splitting written here: {@code starpu_transfer} (each copy's transfer with its fetch
 * link) and the problems the joins count in {@code skipped}, on the fixtures and on damaged copies of them.
 */
class StarpuDerivedTablesTest {
    @TempDir
    Path dir;

    private Store importInto(String name, Path input) throws Exception {
        Path file = dir.resolve(name + ".duckdb");
        StoreWriter w = StoreWriter.create(file);
        w.beginSource(input.toString(), "paje");
        try {
            new PajeFormat().read(input, w, Progress.NONE);
        } finally {
            w.endSource();
        }
        w.commit();
        return Store.open(file);
    }

    /** A body line of paje.trace as plain text: its number and fields. */
    private record Line(long no, String[] f) {}

    /**
     * Body lines by the Paje event name their id stands for; lines with a field count the header does not give, and
     * a last line without its newline, are left out.
     */
    private static Map<String, List<Line>> byEvent(Path trace) throws Exception {
        Map<String, String> names = new HashMap<>();
        Map<String, Integer> fields = new HashMap<>();
        Map<String, List<Line>> out = new HashMap<>();
        String id = null;
        long no = 0;
        byte[] bytes = Files.readAllBytes(trace);
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean endsWithNewline = text.endsWith("\n");
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            no++;
            if (i == lines.length - 1 && !endsWithNewline) {
                break; // a last line without its newline was cut short
            }
            String[] f = line.trim().split("\\s+");
            if (line.startsWith("%EventDef")) {
                id = f[2];
                names.put(id, f[1]);
                fields.put(id, 0);
            } else if (line.startsWith("%EndEventDef")) {
                id = null;
            } else if (line.startsWith("%") && id != null) {
                fields.merge(id, 1, Integer::sum);
            } else if (!line.startsWith("%") && f.length > 1 && names.containsKey(f[0])
                    && fields.get(f[0]) == f.length - 1) {
                out.computeIfAbsent(names.get(f[0]), k -> new ArrayList<>()).add(new Line(no, f));
            }
        }
        return out;
    }

    /** Milliseconds as written to ns, half-even (StarPU's unit). */
    private static long ns(String ms) {
        return new BigDecimal(ms).movePointRight(6).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    }

    private record Link(long com, String cls, long start, long end, long startLine, long endLine) {}

    /** What the recount expects: starpu_transfer rows as text, sorted, and the two link problems. */
    private record Expected(List<String> transfers, long duplicateKeys, String firstDuplicate, long unusedLinks,
                            String firstUnused) {}

    private static Expected recount(Path trace) throws Exception {
        Map<String, List<Line>> ev = byEvent(trace);
        // links: start and end lines by (type, key), paired in order (StartLink fields: time type container value
        // startContainer key)
        Map<String, ArrayDeque<Line>> starts = new HashMap<>();
        Map<String, ArrayDeque<Line>> ends = new HashMap<>();
        List<Line> linkLines = new ArrayList<>(ev.getOrDefault("PajeStartLink", List.of()));
        linkLines.addAll(ev.getOrDefault("PajeEndLink", List.of()));
        linkLines.sort((a, b) -> Long.compare(a.no(), b.no()));
        List<Link> links = new ArrayList<>(); // in the order they completed
        for (Line l : linkLines) {
            boolean start = ev.getOrDefault("PajeStartLink", List.of()).contains(l);
            String key = l.f()[2] + " " + l.f()[6];
            ArrayDeque<Line> other = (start ? ends : starts).get(key);
            if (other != null && !other.isEmpty()) {
                Line o = other.poll();
                Line s = start ? l : o;
                Line e = start ? o : l;
                String type = s.f()[2];
                String k = s.f()[6];
                String cls = switch (type) {
                    case "F" -> "fetch";
                    case "PF" -> "prefetch";
                    case "IF" -> "idle_fetch";
                    default -> null;
                };
                if (cls != null && k.matches("com_[1-9][0-9]*|com_0")) {
                    links.add(new Link(Long.parseLong(k.substring(4)), cls, ns(s.f()[1]), ns(e.f()[1]), s.no(),
                            e.no()));
                }
            } else {
                (start ? starts : ends).computeIfAbsent(key, x -> new ArrayDeque<>()).add(l);
            }
        }
        // copies: a DCo event (time type container value handle info=com size tid) with its DCoE on the same
        // manager and com, paired in order
        Map<String, ArrayDeque<Line>> openCopies = new HashMap<>();
        List<Long> copyComs = new ArrayList<>();
        for (Line l : ev.getOrDefault("PajeNewEvent", List.of())) {
            String[] f = l.f();
            if (f.length != 9) {
                continue;
            }
            String key = f[3] + " " + f[6];
            if (f[2].equals("DCo")) {
                openCopies.computeIfAbsent(key, x -> new ArrayDeque<>()).add(l);
            } else if (f[2].equals("DCoE")) {
                ArrayDeque<Line> q = openCopies.get(key);
                if (q != null && !q.isEmpty()) {
                    q.poll();
                    copyComs.add(Long.parseLong(f[6]));
                }
            }
        }
        Map<Long, List<Link>> linksOf = new TreeMap<>();
        for (Link k : links) {
            linksOf.computeIfAbsent(k.com(), x -> new ArrayList<>()).add(k);
        }
        List<String> rows = new ArrayList<>();
        for (long com : copyComs) {
            List<Link> ls = linksOf.get(com);
            Link k = ls == null ? null : ls.get(ls.size() - 1);
            rows.add(com + " " + (k == null ? "null null null" : k.cls() + " " + k.start() + " " + (k.end()
                    - k.start())));
        }
        rows.sort(null);
        long dup = 0;
        String firstDup = null;
        long unused = 0;
        String firstUnused = null;
        for (var e : linksOf.entrySet()) {
            List<Link> ls = e.getValue();
            for (int i = 1; i < ls.size(); i++) {
                dup++;
                if (firstDup == null) {
                    firstDup = trace + ":" + ls.get(i).endLine() + " (com_" + e.getKey() + ")";
                }
            }
            if (!copyComs.contains(e.getKey())) {
                unused++;
                if (firstUnused == null) {
                    firstUnused = trace + ":" + ls.get(ls.size() - 1).startLine() + " (com_" + e.getKey() + ")";
                }
            }
        }
        return new Expected(rows, dup, firstDup, unused, firstUnused);
    }

    private static void checkTransfers(Store store, Path trace) throws Exception {
        Expected x = recount(trace);
        List<String> stored = new ArrayList<>();
        for (Object[] r : store.query("SELECT com_id, class, link_ts, link_dur FROM starpu_transfer").rows()) {
            stored.add(r[0] + " " + r[1] + " " + r[2] + " " + r[3]);
        }
        stored.sort(null);
        assertEquals(x.transfers(), stored, trace.toString());
        // every starpu_transfer row is one transfer with that communication id
        assertEquals(0L, store.scalarLong("SELECT count(*) FROM starpu_transfer s LEFT JOIN transfer t "
                + "ON t.id = s.transfer_id AND t.correlation_id = s.com_id WHERE t.id IS NULL"));
        assertEquals(store.scalarLong("SELECT count(*) FROM transfer"),
                store.scalarLong("SELECT count(*) FROM starpu_transfer"));
        checkSkip(store, "duplicate_id", "transfer link key", x.duplicateKeys(), x.firstDuplicate());
        checkSkip(store, "unmatched_flow", "transfer link without DriverCopy events", x.unusedLinks(),
                x.firstUnused());
        assertEquals(0L, store.scalarLong("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE "
                + "'starpu_stage%'"), "no staging table is left");
    }

    private static void checkSkip(Store store, String reason, String detail, long count, String first) {
        List<Object[]> rows = store.query("SELECT count, location FROM skipped WHERE reason = '" + reason
                + "' AND detail = '" + detail + "'").rows();
        if (count == 0) {
            assertEquals(0, rows.size(), reason + " " + detail);
        } else {
            assertEquals(1, rows.size(), reason + " " + detail);
            assertEquals(count, ((Number) rows.get(0)[0]).longValue(), reason + " " + detail);
            assertEquals(first, rows.get(0)[1], reason + " " + detail);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void transfersOfTheFixtures(String name) throws Exception {
        Path fixture = StarpuFixtureTest.fixture(name);
        try (Store store = importInto(name, fixture)) {
            checkTransfers(store, fixture.resolve("paje.trace"));
            if (name.equals("chol-dmda-nb6")) {
                assertEquals(List.of("fetch 3", "prefetch 26"), store.query("SELECT class || ' ' || count(*) "
                        + "FROM starpu_transfer GROUP BY class ORDER BY class").rows().stream()
                        .map(r -> (String) r[0]).toList());
            }
        }
    }

    /** A link line with its last field, the key, replaced. */
    private static String withKey(String line, String key) {
        String t = line.stripTrailing();
        int i = t.length();
        while (i > 0 && !Character.isWhitespace(t.charAt(i - 1))) {
            i--;
        }
        return t.substring(0, i) + key;
    }

    /**
     * A paje.trace cut short in the middle of a line, and one whose links repeat a key and lose their copies: the
     * join keeps the link completed last, and counts the repeated keys and the links no copy used.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void transfersOfDamagedTraces(String name) throws Exception {
        Path fixture = StarpuFixtureTest.fixture(name);
        byte[] bytes = Files.readAllBytes(fixture.resolve("paje.trace"));
        Path cut = Files.createDirectories(dir.resolve(name + "-cut"));
        Files.write(cut.resolve("paje.trace"), java.util.Arrays.copyOf(bytes, bytes.length * 3 / 5 + 7));
        try (Store store = importInto(name + "-cut", cut)) {
            checkTransfers(store, cut.resolve("paje.trace"));
        }
        // every third copy's DCo event renamed (its transfer is gone), and every fifth link's key given to the next
        List<String> lines = new ArrayList<>(Files.readAllLines(fixture.resolve("paje.trace")));
        int copies = 0;
        int links = 0;
        String previousKey = null;
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).trim().split("\\s+");
            if (f.length == 9 && f[2].equals("DCo") && copies++ % 3 == 0) {
                lines.set(i, lines.get(i).replace(" DCo ", " DCoX "));
            }
            if (f.length == 7 && f[6].startsWith("com_") && (f[0].equals("18") || f[0].equals("19"))) {
                if (f[0].equals("18") && links++ % 5 == 4 && previousKey != null) {
                    // this link's start and end both take the key of the link before
                    String key = f[6];
                    String taken = previousKey;
                    lines.set(i, withKey(lines.get(i), taken));
                    for (int j = i + 1; j < lines.size(); j++) {
                        String[] g = lines.get(j).trim().split("\\s+");
                        if (g.length == 7 && g[0].equals("19") && g[6].equals(key)) {
                            lines.set(j, withKey(lines.get(j), taken));
                            break;
                        }
                    }
                }
                previousKey = f[6];
            }
        }
        Path odd = Files.createDirectories(dir.resolve(name + "-odd"));
        Files.write(odd.resolve("paje.trace"), lines);
        try (Store store = importInto(name + "-odd", odd)) {
            Expected x = recount(odd.resolve("paje.trace"));
            assertTrue(x.duplicateKeys() > 0 && x.unusedLinks() > 0, x.toString());
            checkTransfers(store, odd.resolve("paje.trace"));
        }
    }

    /** An executed record of tasks.rec as plain text: JobId, name, worker, start and end (ns), line. */
    private record Rec(long job, String name, long worker, long start, long end, long line) {}

    /** The executed records of tasks.rec with the numbers they need; a record with a bad number is left out. */
    private static List<Rec> executedRecords(Path rec) throws Exception {
        List<Rec> out = new ArrayList<>();
        Map<String, String> f = new HashMap<>();
        long first = 0;
        long no = 0;
        List<String> lines = new ArrayList<>(Files.readAllLines(rec));
        lines.add("");
        for (String line : lines) {
            no++;
            if (line.isBlank()) {
                if (!f.isEmpty()) {
                    try {
                        if (f.containsKey("WorkerId") && f.containsKey("StartTime") && f.containsKey("EndTime")) {
                            out.add(new Rec(Long.parseLong(f.get("JobId")), f.get("Name"),
                                    Long.parseLong(f.get("WorkerId")), ns(f.get("StartTime")), ns(f.get("EndTime")),
                                    first));
                        }
                    } catch (NumberFormatException | ArithmeticException e) {
                        // a damaged record: skipped
                    }
                }
                f.clear();
                continue;
            }
            if (f.isEmpty()) {
                first = no;
            }
            int colon = line.indexOf(": ");
            if (colon > 0) {
                f.put(line.substring(0, colon), line.substring(colon + 2).trim());
            }
        }
        return out;
    }

    /** Worker states with a JobId in paje.trace: JobId to the lines of its states, in file order. */
    private static Map<Long, List<Long>> jobStates(Path trace) throws Exception {
        Map<Long, List<Long>> out = new TreeMap<>();
        // the SetState definitions with a JobId field: their id and the field's position
        Map<String, Integer> jobField = new HashMap<>();
        String id = null;
        int field = 0;
        for (String line : Files.readAllLines(trace)) {
            String[] f = line.trim().split("\\s+");
            if (line.startsWith("%EventDef")) {
                id = f[1].equals("PajeSetState") ? f[2] : null;
                field = 0;
            } else if (line.startsWith("%") && id != null && !line.startsWith("%EndEventDef")) {
                field++;
                if (f[f.length - 2].equals("JobId")) {
                    jobField.put(id, field);
                }
            }
        }
        for (var e : byEvent(trace).getOrDefault("PajeSetState", List.of())) {
            Integer k = jobField.get(e.f()[0]);
            if (k != null && e.f()[3].equals("WS")) {
                out.computeIfAbsent(Long.parseLong(e.f()[k]), x -> new ArrayList<>()).add(e.no());
            }
        }
        return out;
    }

    private static void checkTasks(Store store, Path folder) throws Exception {
        Path trace = folder.resolve("paje.trace");
        Map<Long, List<Long>> states = jobStates(trace);
        long duplicateStates = states.values().stream().mapToLong(l -> l.size() - 1).sum();
        checkSkipCount(store, "duplicate_id", "task state JobId", duplicateStates);
        List<Object[]> tasks = store.query("SELECT t.id, t.job_id, t.name, t.start_ts, t.end_ts, t.slice_id, "
                + "s.ts, s.dur FROM task t LEFT JOIN slice s ON s.id = t.slice_id ORDER BY t.id").rows();
        Path rec = folder.resolve("tasks.rec");
        if (!Files.exists(rec)) {
            // one task per JobId of the states, in JobId order, on the slice of one of its states
            assertEquals(new ArrayList<>(states.keySet()), tasks.stream().map(r -> (Long) r[1]).toList());
            for (Object[] t : tasks) {
                assertEquals(t[3], t[6]);
                assertEquals((Long) t[4] - (Long) t[3], t[7]);
            }
            return;
        }
        List<Rec> recs = executedRecords(rec);
        assertEquals(recs.size(), tasks.size());
        long first = (Long) tasks.get(0)[0];
        Map<Long, Long> seen = new TreeMap<>();
        long unknown = 0;
        String firstUnknown = null;
        for (int i = 0; i < recs.size(); i++) {
            Rec r = recs.get(i);
            Object[] t = tasks.get(i);
            assertEquals(first + i, t[0], "task ids follow tasks.rec's order");
            assertEquals(List.of(r.job(), r.name(), r.start(), r.end()), List.of(t[1], t[2], t[3], t[4]));
            assertEquals(states.containsKey(r.job()), t[5] != null, "JobId " + r.job() + " has a state");
            if (!states.containsKey(r.job())) {
                unknown++;
                if (firstUnknown == null) {
                    firstUnknown = rec + ":" + r.line() + " (JobId " + r.job() + ")";
                }
            }
            seen.merge(r.job(), 1L, Long::sum);
        }
        checkSkip(store, "unknown_reference", "tasks.rec task without a worker state in paje.trace", unknown,
                firstUnknown);
        long again = seen.values().stream().mapToLong(n -> n - 1).sum();
        String firstAgain = null;
        for (var e : seen.entrySet()) {
            if (e.getValue() > 1) {
                long job = e.getKey();
                Rec second = recs.stream().filter(r -> r.job() == job).skip(1).findFirst().orElseThrow();
                firstAgain = rec + ":" + second.line() + " (JobId " + job + ")";
                break;
            }
        }
        checkSkip(store, "duplicate_id", "tasks.rec JobId", again, firstAgain);
        assertEquals(0L, store.scalarLong("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE "
                + "'starpu_stage%'"), "no staging table is left");
    }

    private static void checkSkipCount(Store store, String reason, String detail, long count) {
        Long stored = store.scalarLong("SELECT sum(count) FROM skipped WHERE reason = '" + reason + "' AND detail = '"
                + detail + "'");
        assertEquals(count, stored == null ? 0 : stored, reason + " " + detail);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void tasksOfTheFixturesWithAndWithoutTasksRec(String name) throws Exception {
        Path fixture = StarpuFixtureTest.fixture(name);
        try (Store store = importInto(name, fixture)) {
            checkTasks(store, fixture);
        }
        Path alone = Files.createDirectories(dir.resolve(name + "-alone"));
        Files.copy(fixture.resolve("paje.trace"), alone.resolve("paje.trace"));
        try (Store store = importInto(name + "-alone", alone)) {
            checkTasks(store, alone);
        }
    }

    /**
     * A paje.trace cut short and some of its worker states given twice, beside a tasks.rec with a broken record,
     * records given twice and records whose JobId no state has.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void tasksOfDamagedInputs(String name) throws Exception {
        Path fixture = StarpuFixtureTest.fixture(name);
        Path d = Files.createDirectories(dir.resolve(name + "-damaged"));
        List<String> trace = new ArrayList<>();
        int ws = 0;
        for (String line : Files.readAllLines(fixture.resolve("paje.trace"))) {
            trace.add(line);
            String[] f = line.trim().split("\\s+");
            if (f.length > 3 && f[0].equals("20") && f[3].equals("WS") && ws++ % 7 == 0) {
                trace.add(line);
            }
        }
        String text = String.join("\n", trace);
        Files.writeString(d.resolve("paje.trace"), text.substring(0, text.length() * 4 / 5 + 3));
        String[] records = Files.readString(fixture.resolve("tasks.rec")).split("\n\n");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < records.length; i++) {
            String r = records[i];
            if (i % 13 == 5) {
                r = r.replaceFirst("JobId: (\\d+)", "JobId: 9$1");
            }
            if (i == 20) {
                r = r.replaceFirst("StartTime: \\S+", "StartTime: 12x.5");
            }
            out.add(r);
            if (i % 9 == 3 && r.contains("WorkerId")) {
                out.add(r);
            }
        }
        Files.writeString(d.resolve("tasks.rec"), String.join("\n\n", out));
        try (Store store = importInto(name + "-damaged", d)) {
            assertTrue(store.scalarLong("SELECT count(*) FROM skipped WHERE reason = 'duplicate_id'") > 0);
            checkTasks(store, d);
            assertEquals(1L, store.scalarLong("SELECT sum(count) FROM skipped WHERE detail = 'tasks.rec record "
                    + "with a bad number'"));
        }
        Files.delete(d.resolve("tasks.rec"));
        try (Store store = importInto(name + "-damaged-alone", d)) {
            checkTasks(store, d);
        }
    }
}
