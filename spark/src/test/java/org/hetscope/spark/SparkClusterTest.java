package org.hetscope.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.hetscope.store.ParquetDataset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hetscope spark import on a real standalone Spark cluster: a master and two workers (one core each), started as
 * separate JVMs from the Spark jars and bound to 127.0.0.1 on free ports, and the driver as a third JVM, as a user
 * runs {@code hetscope spark import FOLDER -o DATASET --master spark://...}. The folder holds good traces and two bad
 * ones; the bad ones are reported by name, the others imported, by executors in other processes than the driver.
 */
class SparkClusterTest {
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopCluster() {
        // the workers' executors first (children of the workers), then the daemons
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroy);
        }
        for (Process p : started) {
            p.destroy();
        }
        for (Process p : started) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void importsAFolderOfTracesOnAStandaloneCluster(@TempDir Path tmp) throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("traces"));
        Path f = TestTraces.fixtures();
        Files.copy(f.resolve("chrome/kineto-cuda-simple-add.json.gz"), folder.resolve("rank0.json.gz"));
        Files.copy(f.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"), folder.resolve("rank1.json.gz"));
        copyTree(f.resolve("otf2/ping-pong-otf2"), folder.resolve("ping-pong-otf2"));
        copyTree(f.resolve("starpu/chol-dmda-nb6"), folder.resolve("chol-dmda-nb6"));
        for (Path b : TestTraces.bad(tmp.resolve("bad"))) {
            Files.copy(b, folder.resolve(b.getFileName()));
        }

        String cp = System.getProperty("java.class.path");
        // a SPARK_HOME whose jars/ holds the jars of this class path: the workers build the executors' class path
        // from it, as from a Spark distribution
        Path home = Files.createDirectories(tmp.resolve("spark-home/jars"));
        for (String e : cp.split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (e.endsWith(".jar") && Files.isRegularFile(p) && !Files.exists(home.resolve(p.getFileName()))) {
                Files.createSymbolicLink(home.resolve(p.getFileName()), p.toAbsolutePath());
            }
        }
        int masterPort = freePort();
        String url = "spark://127.0.0.1:" + masterPort;
        Path logs = Files.createDirectories(tmp.resolve("logs"));
        // the daemons log at INFO: their start-up lines say when they are ready
        info = logs.resolve("log4j2-info.properties");
        Files.writeString(info, Files.readString(Path.of(System.getProperty("hetscope.root", ".."))
                .resolve("spark/conf/log4j2.properties")).replace("rootLogger.level = warn", "rootLogger.level = info"));
        Process master = start(logs.resolve("master.log"), home.getParent(), cp, "-Xmx256m",
                "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", Integer.toString(masterPort),
                "--webui-port", Integer.toString(freePort()));
        waitFor(logs.resolve("master.log"), "I have been elected leader", master);
        for (int w = 0; w < 2; w++) {
            Path log = logs.resolve("worker" + w + ".log");
            Process worker = start(log, home.getParent(), cp, "-Xmx256m", "org.apache.spark.deploy.worker.Worker", url,
                    "--host", "127.0.0.1", "--cores", "1", "--memory", "1g", "--webui-port",
                    Integer.toString(freePort()), "--work-dir", tmp.resolve("work" + w).toString());
            waitFor(log, "Successfully registered with master", worker);
        }
        Path dataset = tmp.resolve("dataset");
        Path out = logs.resolve("driver.out");
        Process driver = start(logs.resolve("driver.log"), home.getParent(), cp, "-Xmx512m",
                "-Dspark.driver.host=127.0.0.1", "-Dspark.driver.bindAddress=127.0.0.1",
                "-Dspark.executor.extraClassPath=" + cp, "-Dspark.executor.memory=512m",
                "-Dspark.executor.extraJavaOptions=--enable-native-access=ALL-UNNAMED",
                // both executors registered before the first task, so that both take traces
                "-Dspark.scheduler.minRegisteredResourcesRatio=1.0",
                "-Dspark.scheduler.maxRegisteredResourcesWaitingTime=120s",
                "org.hetscope.spark.SparkMain", "import", folder.toString(), "-o", dataset.toString(),
                "--master", url, "--json");
        // stdout apart from the log: the JSON report
        assertTrue(driver.waitFor(6, TimeUnit.MINUTES), "driver finished; log: " + tail(logs.resolve("driver.log")));
        String log = Files.readString(logs.resolve("driver.log"));
        assertEquals(3, driver.exitValue(), log);
        String json = Files.readString(out);
        JsonNode rows = new ObjectMapper().readTree(json);
        Map<String, JsonNode> byName = new HashMap<>();
        rows.forEach(r -> byName.put(r.get("trace").asText(), r));
        assertEquals(Set.of("rank0", "rank1", "ping-pong-otf2", "chol-dmda-nb6", "truncated", "notes.txt"),
                byName.keySet(), json);
        for (String bad : List.of("truncated", "notes.txt")) {
            assertEquals("failed", byName.get(bad).get("status").asText());
            assertTrue(log.contains(folder.resolve(bad.equals("truncated") ? "truncated.json.gz" : bad).toString()),
                    "the bad trace is named on stderr: " + log);
        }
        assertFalse(byName.get("truncated").get("position").asText().isEmpty());
        Set<String> executors = new HashSet<>();
        for (String good : List.of("rank0", "rank1", "ping-pong-otf2", "chol-dmda-nb6")) {
            assertEquals("ok", byName.get(good).get("status").asText(), byName.get(good).toString());
            assertTrue(byName.get(good).get("events").asLong() > 0);
            executors.add(byName.get(good).get("executor").asText());
        }
        // the traces were read in the executors' JVMs, not the driver's, and both executors took some
        assertFalse(executors.stream().anyMatch(e -> e.endsWith("/" + driver.pid())), executors.toString());
        assertEquals(2, executors.size(), executors.toString());
        try (ParquetDataset d = ParquetDataset.open(dataset, null)) {
            assertEquals(List.of("chol-dmda-nb6", "ping-pong-otf2", "rank0", "rank1"), d.traces());
            assertEquals(byName.get("rank1").get("events").asLong(), ((Number) d.query("SELECT (SELECT count(*) "
                    + "FROM slice WHERE trace = 'rank1') + (SELECT count(*) FROM instant WHERE trace = 'rank1') + "
                    + "(SELECT count(*) FROM counter WHERE trace = 'rank1')").rows().get(0)[0]).longValue());
        }
        assertNotEquals(0, Files.size(dataset.resolve(ParquetDataset.MANIFEST)));
    }

    private Path info;

    private Process start(Path log, Path sparkHome, String cp, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("@" + Path.of(System.getProperty("hetscope.root", "..")).resolve("spark/jvm.options"));
        boolean daemon = List.of(args).stream().anyMatch(a -> a.startsWith("org.apache.spark.deploy."));
        cmd.add("-Dlog4j.configurationFile=" + (daemon ? info : Path.of(System.getProperty("hetscope.root", ".."))
                .resolve("spark/conf/log4j2.properties")));
        cmd.add("-cp");
        cmd.add(cp);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("SPARK_HOME", sparkHome.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.redirectError(log.toFile());
        pb.redirectOutput(log.resolveSibling(log.getFileName().toString().replace(".log", ".out")).toFile());
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static void waitFor(Path log, String line, Process p) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < end) {
            if (Files.exists(log) && Files.readString(log).contains(line)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("exited before '" + line + "': " + tail(log));
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no '" + line + "' within 120 s: " + tail(log));
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        String s = Files.readString(log);
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
