package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;

/**
 * Reading a file's body in chunks decoded on worker threads hands over exactly what reading it line by line on
 * one thread does: every type, container, state, event, link, variable and problem, with its line, in order,
 * including damaged lines, header lines in the body and a truncated last line at chunk boundaries.
 */
class ChunkedReadingTest {

    /** Writes down every call it receives. */
    static final class Log implements PajeListener {
        final List<String> calls = new ArrayList<>();

        @Override public void header(Map<Integer, EventDefinition> d) { calls.add("header " + d.keySet()); }
        @Override public void type(PajeType t) { calls.add("type " + t); }
        @Override public void value(PajeType t, PajeValue v) { calls.add("value " + t.alias() + " " + v); }
        @Override public void container(PajeContainer c) { calls.add("container " + c + " " + c.created()); }
        @Override public void event(PajeEvent e) {
            calls.add("event " + e.container() + " " + e.type().alias() + " " + e.time() + " " + e.value() + " "
                    + (e.extras() == null ? null : List.of(e.extras())) + " @" + e.line());
        }
        @Override public void link(PajeLink l) { calls.add("link " + l); }
        @Override public void state(PajeState s) {
            calls.add("state " + s.container() + " " + s.type().alias() + " " + s.start() + "-" + s.end() + " "
                    + s.value() + " d" + s.depth() + " " + (s.extras() == null ? null : List.of(s.extras()))
                    + " @" + s.line() + " " + s.closedByEnd());
        }
        @Override public void variable(PajeContainer c, PajeType t, long time, double v, long line) {
            calls.add("variable " + c + " " + t.alias() + " " + time + " " + v + " @" + line);
        }
        @Override public void problem(String what, long line, String detail) {
            calls.add("problem " + what + " @" + line + " " + detail);
        }
        @Override public void end(long start, long end) { calls.add("end " + start + " " + end); }
    }

    static List<String> read(byte[] trace, int chunkBytes, int workers) throws Exception {
        Log log = new Log();
        PajeReader r = new PajeReader(log, null, chunkBytes, workers);
        r.read(new ByteArrayInputStream(trace), Progress.NONE);
        log.calls.add("lines " + r.lines() + " rounded " + r.roundedTimes() + " first " + r.firstRoundedLine()
                + " counts " + r.counts());
        return log.calls;
    }

    static void assertSameInChunks(byte[] trace) throws Exception {
        List<String> oneThread = read(trace, 1 << 20, 0);
        assertEquals(oneThread, read(trace, 300, 2));
        assertEquals(oneThread, read(trace, 4096, 1));
        assertEquals(oneThread, read(trace, 64 << 10, 3));
    }

    static byte[] fixture() throws Exception {
        return Files.readAllBytes(Path.of(System.getProperty("hetscope.root", "."))
                .resolve("../shared/fixtures/starpu/chol-lws-nb12/paje.trace"));
    }

    @Test
    void starpuFixture() throws Exception {
        assertSameInChunks(fixture());
    }

    @Test
    void damagedLinesHeaderInTheBodyAndATruncatedLastLine() throws Exception {
        String[] lines = new String(fixture(), StandardCharsets.UTF_8).split("\n");
        String[] damage = {"10\t12.5\tw1\tWS", "10\tabc\tw1\tWS\tIn", "10\t12.5\tnoSuchContainer\tWS\tIn",
            "13\t12.5\tsched\tnready\tx1", "9\t12.5\tregister\tp\t\"unterminated", "99\t1\t2", "garbage line",
            "# comment", "", "   \t ", "10\t12.5\tw1\tWS\tIn\textra", "10\t12.5\tw1\tWS\tIn\r",
            "10\t1.1234567890123\tw1\tWS\tIn", "11\t13.0\tw1\tWS\t\"quoted\tvalue\"", "12\t-5\tw1\tWS",
            "10\t1e3\tw1\tWS\tIn", "10\t15.0\tw1\tNoType\tIn", "13\t16.0\tsched\tWS\t1.0", "123456789012 1 2"};
        StringBuilder noHeader = new StringBuilder();
        StringBuilder withHeader = new StringBuilder();
        int body = 0;
        for (int i = 0; i < lines.length; i++) {
            noHeader.append(lines[i]).append('\n');
            withHeader.append(lines[i]).append('\n');
            if (!lines[i].startsWith("%")) {
                body++;
                if (body % 97 == 0) {
                    String d = damage[(body / 97) % damage.length] + "\n";
                    noHeader.append(d);
                    withHeader.append(d);
                }
                if (body == lines.length / 2) {
                    withHeader.append("%EventDef PajeSetState 99\n% Time date\n% Container string\n% Type string\n"
                            + "% Value string\n%EndEventDef\n99\t18.0\tw1\tWS\tIn\n");
                }
            }
        }
        noHeader.append("10\t12.5\tw1");
        withHeader.append("9\t12.5\tregister\tp\t\"unterm");
        List<String> calls = read(noHeader.toString().getBytes(StandardCharsets.UTF_8), 1 << 20, 0);
        assertTrue(calls.stream().anyMatch(c -> c.startsWith("problem damaged input: truncated last line")));
        assertSameInChunks(noHeader.toString().getBytes(StandardCharsets.UTF_8));
        assertSameInChunks(withHeader.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void emptyInputAndHeaderOnly() throws Exception {
        assertSameInChunks(new byte[0]);
        assertSameInChunks("%EventDef PajeSetState 10\n% Time date\n%EndEventDef".getBytes(StandardCharsets.UTF_8));
    }
}
