package org.hetscope.formats.ctf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the reference decoder, babeltrace2, and parses its pretty text output. */
final class Babeltrace {
    /** One event as babeltrace2 printed it: ns from origin and the text after the host name. */
    record Line(long ns, String text) {}

    /** A run of babeltrace2 whatever its outcome: exit status, the events it printed, and its error report. */
    record Run(int exit, List<Line> lines, String errors) {}

    static boolean available() {
        try {
            Process p = new ProcessBuilder("babeltrace2", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * The events of {@code trace} with the host name its metadata declares taken off each line, or null when
     * babeltrace2 cannot read it.
     */
    static List<Line> read(Path trace) throws Exception {
        String host;
        try (CtfTrace t = CtfTrace.open(trace)) {
            host = t.metadata().get(0).env.get("hostname");
        }
        return read(trace, host);
    }

    /** The events of {@code trace}, or null when babeltrace2 cannot read it. */
    static List<Line> read(Path trace, String hostname) throws IOException, InterruptedException {
        Path out = Files.createTempFile("bt2-", ".txt");
        try {
            Process p = new ProcessBuilder("babeltrace2", "--no-delta", "--clock-seconds", trace.toString())
                    .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("babeltrace2 timed out on " + trace);
            }
            if (p.exitValue() != 0) {
                return null;
            }
            List<Line> lines = new ArrayList<>();
            try (var r = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
                String s;
                while ((s = r.readLine()) != null) {
                    lines.add(parse(s, hostname));
                }
            }
            return lines;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * Runs babeltrace2 on {@code trace} and keeps what it printed even when it fails: on damaged input it prints the
     * events it could decode before it stops.
     */
    static Run run(Path trace, String hostname) throws IOException, InterruptedException {
        Path out = Files.createTempFile("bt2-", ".txt");
        Path err = Files.createTempFile("bt2-", ".err");
        try {
            Process p = new ProcessBuilder("babeltrace2", "--no-delta", "--clock-seconds", trace.toString())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("babeltrace2 timed out on " + trace);
            }
            List<Line> lines = new ArrayList<>();
            for (String s : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                lines.add(parse(s, hostname));
            }
            return new Run(p.exitValue(), lines, Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The version babeltrace2 reports, as {major, minor}, or null when it cannot be run. */
    static int[] version() {
        try {
            Process p = new ProcessBuilder("babeltrace2", "--version").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("Babeltrace (\\d+)\\.(\\d+)").matcher(text);
            return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    static Line parse(String s, String hostname) {
        int close = s.indexOf("] ");
        String ts = s.substring(1, close);
        int dot = ts.indexOf('.');
        long ns = Long.parseLong(ts.substring(0, dot)) * 1_000_000_000L + Long.parseLong(ts.substring(dot + 1));
        String rest = s.substring(close + 2);
        if (hostname != null && rest.startsWith(hostname + " ")) {
            rest = rest.substring(hostname.length() + 1);
        }
        return new Line(ns, rest);
    }

    private Babeltrace() {}
}
