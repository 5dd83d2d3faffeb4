package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.hetscope.formats.opencl.AgentRun;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Damaged copies of the real fixtures of every binary and text format (and of traces the capture agent writes
 * during the test), made from fixed seeds (bits flipped, the
 * file cut short, junk inserted, extreme integers written over the data): each read must end within a time
 * limit, either with what was intact or with a {@link TraceFormatException} or {@link IOException} naming the
 * file, never with another exception, a hang or running out of memory.
 */
class MutatedInputTest {
    private static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures");
    /** Damaged copies per input; more with -Dhetscope.mutations=N for a deeper local run. */
    private static final int CASES = Integer.getInteger("hetscope.mutations", 40);
    /** First case number: a deep run can go on past a case it stopped at (-Dhetscope.mutations.from=N). */
    private static final int FIRST_CASE = Integer.getInteger("hetscope.mutations.from", 0);
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mutated-input");
        t.setDaemon(true);
        return t;
    });

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    @ParameterizedTest
    @CsvSource({
        "chrome, chrome/kineto-cuda-simple-add.json.gz",
        "chrome, chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
        "chrome, chrome/kineto-cuda-cupti-profiler.json.gz",
        "chrome, chrome/kineto-cuda-event-sync-multistream.json.gz",
        "chrome, chrome/kineto-cuda-sampled-rank0.json.gz",
        "ctf, ctf/cyg-profile/glxgears-cyg-profile",
        "ctf, ctf/debuginfo-test-app2",
        "ctf, ctf/context-switches",
        "ctf, ctf/papi_counters",
        "ctf, ctf/mpi_allreduce",
        "ctf, ctf/ctf-sequence-empty",
        "ctf, ctf/CTF2-7.0-smalltrace",
        "ctf, ctf/CTF2-7.0-trace-with-index",
        "ctf, ctf/CTF2-vl-ints",
        "ctf, ctf/flipping-endianness",
        "ctf, ctf/bug446190",
        "ctf, ctf/perf-taskset2",
        "otf2, otf2/ping-pong-otf2",
        "nsys, nsys/perlmutter-cloverleaf-cuda.sqlite",
        "paje, starpu/chol-dmda-nb6",
        "paje, starpu/chol-lws-nb12",
    })
    void damagedCopiesEndCleanly(String formatName, String fixture, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        damageAndRead(Formats.find(null, formatName), FIXTURES.resolve(fixture), fixture, dir);
    }

    /**
     * The whole import, reader and store together, on fewer damaged copies: what a damaged reader still hands over
     * must go into the store (extreme times, odd strings, ids out of order), the command must end with 0 (intact),
     * 3 (damage counted and kept) or 1 (a message naming the file), and a store it leaves must open.
     */
    @ParameterizedTest
    @CsvSource({
        "chrome/kineto-cuda-event-sync-multistream.json.gz",
        "ctf/cyg-profile/glxgears-cyg-profile",
        "ctf/bug446190",
        "otf2/ping-pong-otf2",
        "nsys/perlmutter-cloverleaf-cuda.sqlite",
        "starpu/chol-dmda-nb6",
    })
    void damagedCopiesImportCleanly(String fixture, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path input = FIXTURES.resolve(fixture);
        for (int c = 0; c < Math.max(3, CASES / 8); c++) {
            Damaged d = Damaged.copy(input, dir, c, new Random(c * 104_729L + fixture.hashCode()));
            Path work = d.work();
            Path target = d.target();
            Path victim = d.victim();
            String what = fixture + " case " + c + " (" + d.what() + " in " + victim.getFileName() + ")";
            Path store = work.resolve("out.duckdb");
            CliRun imp = CliRun.of("import", "--keep-partial", target.toString(), "-o", store.toString());
            assertTrue(imp.exitCode() == 0 || imp.exitCode() == 1 || imp.exitCode() == 3,
                    what + ": exit " + imp.exitCode() + "\n" + imp.err());
            assertTrue(!imp.err().contains("java.lang.") && !imp.err().contains("Exception"),
                    what + ": an internal error instead of a message:\n" + imp.err());
            if (imp.exitCode() == 1) {
                assertTrue(imp.err().contains(target.getFileName().toString())
                        || imp.err().contains(victim.getFileName().toString()), what + ": the error does not name "
                        + "the file:\n" + imp.err());
                assertTrue(!Files.exists(store), what + ": a failed import left " + store);
            } else {
                CliRun info = CliRun.of("info", store.toString(), "--json");
                assertEquals(0, info.exitCode(), what + ": the store does not open:\n" + info.err());
            }
            deleteTree(work);
        }
    }

    /**
     * One damaged spot in a Chrome trace, of each kind the format meets (a value of the wrong type, a bad number,
     * an unbalanced B/E, deep nesting, an oversized string or name, data after the document, a byte order mark, a
     * cut at an event edge), imported as users do: it costs that event only, compared with the undamaged import,
     * and ends with exit code 3 (or 0 where nothing was lost, or 1 naming the file and position where the read
     * had to stop).
     */
    @ParameterizedTest
    @CsvSource({
        "chrome/kineto-cuda-simple-add.json.gz",
        "chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
        "chrome/kineto-cuda-cupti-profiler.json.gz",
        "chrome/kineto-cuda-event-sync-multistream.json.gz",
        "chrome/kineto-cuda-sampled-rank0.json.gz",
        "../../hetscope/examples/kineto-cuda-simple-add.json.gz",
    })
    void oneDamagedChromeEventCostsOnlyItself(String fixture, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path input = fixture.startsWith("../../hetscope/")
                ? Path.of(System.getProperty("hetscope.root", ".")).resolve(fixture.substring(15)) : FIXTURES.resolve(fixture);
        Content intact = importContent(input, dir.resolve("intact.duckdb"), false);
        int c = 0;
        for (StructuredDamage.Chrome kind : StructuredDamage.Chrome.values()) {
            Path work = Files.createDirectories(dir.resolve("case" + c));
            StructuredDamage.Case d = StructuredDamage.chrome(input, kind, new Random(c++ * 31L + fixture.hashCode()),
                    work);
            checkOneSpot(fixture, d, intact, work, kind == StructuredDamage.Chrome.STRAY_END
                    || kind == StructuredDamage.Chrome.UNENDED_BEGIN || kind == StructuredDamage.Chrome.BYTE_ORDER_MARK
                    || kind == StructuredDamage.Chrome.CUT_AT_EVENT);
            deleteTree(work);
        }
    }

    /**
     * One damaged line or record in each file of a StarPU folder (bad numbers, a type swap, a cut inside a line or a
     * record, an oversized line): exit code 3, file:line in the count, the rest of the trace as in the undamaged
     * import.
     */
    @ParameterizedTest
    @CsvSource({"starpu/chol-dmda-nb6", "starpu/chol-lws-nb12"})
    void oneDamagedStarpuLineCostsOnlyItself(String fixture, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path input = FIXTURES.resolve(fixture);
        Content intact = importContent(input, dir.resolve("intact.duckdb"), false);
        int c = 0;
        for (StructuredDamage.Starpu kind : StructuredDamage.Starpu.values()) {
            // one place per kind by default, more in a deep run (-Dhetscope.mutations)
            for (int seed = 0; seed < Math.max(1, CASES / 40); seed++) {
                Path work = Files.createDirectories(dir.resolve("case" + c));
                StructuredDamage.Case d = StructuredDamage.starpu(input, kind, new Random(c++ * 31L
                        + fixture.hashCode()), work);
                checkOneSpot(fixture, d, intact, work, kind == StructuredDamage.Starpu.PAJE_CUT_MID_LINE);
                deleteTree(work);
            }
        }
    }

    /** What an import stored, as comparable rows with their counts (ids left out: they depend on the order). */
    private record Content(java.util.Map<String, Integer> rows, long damaged, List<String> damageWhere) {}

    private static Content importContent(Path input, Path store, boolean lowLimit) throws Exception {
        String old = System.getProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY);
        if (lowLimit) {
            System.setProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY,
                    Integer.toString(StructuredDamage.TOKEN_LIMIT));
        }
        CliRun imp;
        try {
            imp = CliRun.of("import", input.toString(), "-o", store.toString());
        } finally {
            if (old == null) {
                System.clearProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY);
            } else {
                System.setProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY, old);
            }
        }
        assertEquals(0, imp.exitCode(), "the undamaged import: " + imp.err());
        return read(store);
    }

    private static Content read(Path store) throws Exception {
        java.util.Map<String, Integer> rows = new java.util.HashMap<>();
        List<String> where = new ArrayList<>();
        long damaged = 0;
        try (org.hetscope.store.Store s = org.hetscope.store.Store.open(store);
             java.sql.Statement st = s.connection().createStatement()) {
            for (String q : new String[] {
                "SELECT 'slice', category, CASE WHEN category = 'task' THEN '' ELSE name END, ts, dur FROM slice",
                "SELECT 'instant', category, name, ts, 0 FROM instant",
                "SELECT 'counter', '', '', ts, value FROM counter"}) {
                try (java.sql.ResultSet r = st.executeQuery(q)) {
                    while (r.next()) {
                        rows.merge(r.getString(1) + " " + r.getString(2) + " " + r.getString(3) + " "
                                + r.getString(4) + " " + r.getString(5), 1, Integer::sum);
                    }
                }
            }
            try (java.sql.ResultSet r = st.executeQuery(
                    "SELECT location, count FROM skipped WHERE severity = 'damaged_input'")) {
                while (r.next()) {
                    where.add(r.getString(1));
                    damaged += r.getLong(2);
                }
            }
        }
        return new Content(rows, damaged, where);
    }

    /** Rows of {@code a} not in {@code b}, counted as EXCEPT ALL does. */
    private static int exceptAll(java.util.Map<String, Integer> a, java.util.Map<String, Integer> b) {
        int n = 0;
        for (var e : a.entrySet()) {
            n += Math.max(0, e.getValue() - b.getOrDefault(e.getKey(), 0));
        }
        return n;
    }

    private static List<String> except(java.util.Map<String, Integer> a, java.util.Map<String, Integer> b) {
        return a.entrySet().stream().filter(e -> e.getValue() > b.getOrDefault(e.getKey(), 0)).map(e -> e.getKey())
                .limit(5).toList();
    }

    private static void checkOneSpot(String fixture, StructuredDamage.Case d, Content intact, Path work,
                                     boolean mayBeClean) throws Exception {
        String what = fixture + " " + d.what();
        Path store = work.resolve("out.duckdb");
        String old = System.getProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY);
        System.setProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY,
                Integer.toString(StructuredDamage.TOKEN_LIMIT));
        Future<CliRun> run = POOL.submit(() -> CliRun.of("import", d.input().toString(), "-o", store.toString()));
        CliRun imp;
        try {
            imp = run.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            run.cancel(true);
            fail(what + ": still importing after 60 s");
            return;
        } finally {
            if (old == null) {
                System.clearProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY);
            } else {
                System.setProperty(org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY, old);
            }
        }
        assertTrue(!imp.err().contains("java.lang.") && !imp.err().contains("Exception")
                && !imp.err().contains("StreamReadConstraints"), what + ": an internal error:\n" + imp.err());
        String name = d.input().getFileName().toString();
        if (d.fatal()) {
            assertEquals(1, imp.exitCode(), what + ": " + imp.err());
            assertTrue(imp.err().contains(name + " at ") && imp.err().contains("byte "), what + ": no file and "
                    + "position in\n" + imp.err());
            CliRun kept = CliRun.of("import", "--keep-partial", d.input().toString(), "-o", store.toString());
            assertEquals(3, kept.exitCode(), what + " --keep-partial: " + kept.err());
            assertEquals(0, exceptAll(read(store).rows(), intact.rows()), what + ": kept what was not there");
            return;
        }
        assertTrue(imp.exitCode() == 3 || (mayBeClean && imp.exitCode() == 0), what + ": exit " + imp.exitCode()
                + "\n" + imp.err());
        Content got = read(store);
        if (imp.exitCode() == 3) {
            assertTrue(got.damaged() > 0 && got.damageWhere().stream().allMatch(w -> w.contains(work.toString())),
                    what + ": damage not counted at its file: " + got.damageWhere());
        }
        int lost = exceptAll(intact.rows(), got.rows());
        int gained = exceptAll(got.rows(), intact.rows());
        assertTrue(lost <= d.maxLost(), what + ": " + lost + " rows of the undamaged import lost, e.g. "
                + except(intact.rows(), got.rows()));
        assertTrue(gained <= d.maxGained(), what + ": " + gained + " rows not in the undamaged import, e.g. "
                + except(got.rows(), intact.rows()));
    }

    @Test
    void damagedCaptureAgentTracesEndCleanly(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // no fixture holds one: the agent writes it here, from its transfer pipeline and its memory-object example
        AgentRun.require();
        for (String[] example : new String[][] {{"TransferPipeline", "4", "4096"}, {"SubBuffersAndImages", "1024"}}) {
            AgentRun run = AgentRun.run(dir, example[0], example[0],
                    java.util.Arrays.copyOfRange(example, 1, example.length));
            assertEquals(0, run.exitCode(), run.output());
            damageAndRead(Formats.find(null, "opencl"), run.trace(), "agent trace of " + example[0],
                    Files.createDirectories(dir.resolve(example[0] + "-damaged")));
        }
    }

    @Test
    void damagedRpdDatabasesEndCleanly(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // no fixture holds an RPD file: a small one in rpd_tracer's layout, calls linked to kernels and copies
        Path rpd = dir.resolve("small.rpd");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + rpd);
             java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE rocpd_string (id integer PRIMARY KEY, string varchar(4096))");
            st.executeUpdate("CREATE TABLE rocpd_api (id integer PRIMARY KEY, pid integer, tid integer, start integer,"
                    + " \"end\" integer, apiName_id integer, args_id integer)");
            st.executeUpdate("CREATE TABLE rocpd_op (id integer PRIMARY KEY, gpuId integer, queueId integer, "
                    + "sequenceId integer, completionSignal varchar(18), start integer, \"end\" integer, "
                    + "description_id integer, opType_id integer)");
            st.executeUpdate("CREATE TABLE rocpd_api_ops (id integer PRIMARY KEY, api_id integer, op_id integer)");
            st.executeUpdate("CREATE TABLE rocpd_copyapi (api_ptr_id integer PRIMARY KEY, stream varchar(18), "
                    + "size integer, width integer, height integer, kind integer, dst varchar(18), src varchar(18), "
                    + "dstDevice integer, srcDevice integer, sync bool, pinned bool)");
            st.executeUpdate("INSERT INTO rocpd_string VALUES (1, 'hipLaunchKernel'), (2, 'KernelExecution'), "
                    + "(3, 'vadd'), (4, ''), (5, 'hipMemcpy'), (6, 'CopyHostToDevice')");
            for (int i = 0; i < 300; i++) {
                boolean copy = i % 3 == 0;
                long t = 1_000_000L * i;
                st.executeUpdate("INSERT INTO rocpd_api VALUES (" + (10_000 + i) + ", 7, 8, " + t + ", " + (t + 5000)
                        + ", " + (copy ? 5 : 1) + ", 4)");
                st.executeUpdate("INSERT INTO rocpd_op VALUES (" + (20_000 + i) + ", " + (i % 2) + ", " + (i % 3)
                        + ", " + i + ", '', " + (t + 6000) + ", " + (t + 9000) + ", " + (copy ? 4 : 3) + ", "
                        + (copy ? 6 : 2) + ")");
                st.executeUpdate("INSERT INTO rocpd_api_ops (api_id, op_id) VALUES (" + (10_000 + i) + ", "
                        + (20_000 + i) + ")");
                if (copy) {
                    st.executeUpdate("INSERT INTO rocpd_copyapi VALUES (" + (10_000 + i) + ", '0', " + (4096 * (i + 1))
                            + ", 0, 0, 1, '', '', 0, 0, 1, 0)");
                }
            }
        }
        CollectingSink intact = new CollectingSink();
        Formats.find(null, "rocpd").read(rpd, intact, Progress.NONE);
        assertEquals(200, intact.kernels.size(), "the undamaged file reads whole");
        assertEquals(100, intact.transfers.size());
        damageAndRead(Formats.find(null, "rocpd"), rpd, "RPD database", Files.createDirectories(dir.resolve("d")));
    }

    private static void damageAndRead(TraceFormat format, Path input, String label, Path dir) throws Exception {
        for (int c = FIRST_CASE; c < FIRST_CASE + CASES; c++) {
            Damaged d = Damaged.copy(input, dir, c, new Random(c * 7919L + label.hashCode()));
            Path work = d.work();
            Path target = d.target();
            Path victim = d.victim();
            String what = d.what();
            Future<Throwable> read = POOL.submit(() -> {
                try {
                    format.read(target, new CollectingSink(), Progress.NONE);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            Throwable outcome;
            try {
                outcome = read.get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                read.cancel(true);
                fail(label + " case " + c + " (" + what + " in " + victim.getFileName() + "): still reading after 30 s");
                return;
            }
            if (outcome == null) {
                continue;
            }
            if (!(outcome instanceof TraceFormatException || outcome instanceof IOException)) {
                throw new AssertionError(label + " case " + c + " (" + what + " in " + victim.getFileName()
                        + "): " + outcome, outcome);
            }
            String message = String.valueOf(outcome.getMessage());
            assertTrue(message.contains(target.getFileName().toString()) || message.contains(victim.getFileName().toString()),
                    label + " case " + c + ": the error does not name the file: " + message);
            deleteTree(work);
        }
    }

    /** One damaged copy of an input: its folder, the copy, the file hit, and what was done to it. */
    private record Damaged(Path work, Path target, Path victim, String what) {
        /** Copies {@code input} into {@code dir/caseN} and damages one of its files, chosen by {@code random}. */
        static Damaged copy(Path input, Path dir, int n, Random random) throws IOException {
            Path work = Files.createDirectories(dir.resolve("case" + n));
            Path target = work.resolve(input.getFileName().toString().replace(".gz", ""));
            List<Path> files = MutatedInputTest.copy(input, target);
            Path victim = files.get(random.nextInt(files.size()));
            return new Damaged(work, target, victim, mutate(victim, random));
        }
    }

    /** Copies the fixture (a gzip file is unpacked, so the damage hits the format, not the compression). */
    private static List<Path> copy(Path from, Path to) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(from)) {
            try (Stream<Path> s = Files.walk(from)) {
                for (Path p : s.sorted().toList()) {
                    Path q = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(q);
                    } else {
                        Files.copy(p, q);
                        q.toFile().setWritable(true);
                        files.add(q);
                    }
                }
            }
        } else if (from.toString().endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(from))) {
                Files.copy(in, to);
            }
            files.add(to);
        } else {
            Files.copy(from, to);
            to.toFile().setWritable(true);
            files.add(to);
        }
        return files;
    }

    private static String mutate(Path file, Random random) throws IOException {
        byte[] b = Files.readAllBytes(file);
        String what;
        switch (random.nextInt(4)) {
            case 0 -> {
                int n = 1 + random.nextInt(20);
                for (int i = 0; i < n && b.length > 0; i++) {
                    b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                }
                what = n + " bits flipped";
            }
            case 1 -> {
                int at = b.length == 0 ? 0 : random.nextInt(b.length);
                b = java.util.Arrays.copyOf(b, at);
                what = "cut at byte " + at;
            }
            case 2 -> {
                int at = b.length == 0 ? 0 : random.nextInt(b.length);
                byte[] junk = new byte[1 + random.nextInt(64)];
                random.nextBytes(junk);
                byte[] out = new byte[b.length + junk.length];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(junk, 0, out, at, junk.length);
                System.arraycopy(b, at, out, at + junk.length, b.length - at);
                b = out;
                what = junk.length + " junk bytes at " + at;
            }
            default -> {
                int n = 1 + random.nextInt(8);
                for (int i = 0; i < n && b.length > 8; i++) {
                    int at = random.nextInt(b.length - 8);
                    long v = switch (random.nextInt(4)) {
                        case 0 -> 0xFFFFFFFFL;
                        case 1 -> Long.MAX_VALUE;
                        case 2 -> 0x80000000L;
                        default -> random.nextLong();
                    };
                    for (int k = 0; k < 8; k++) {
                        b[at + k] = (byte) (v >>> (8 * k));
                    }
                }
                what = n + " integers overwritten";
            }
        }
        Files.write(file, b);
        return what;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
