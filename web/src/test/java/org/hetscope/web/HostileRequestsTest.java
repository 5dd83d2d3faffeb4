package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.web.report.ReportWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 through the HTTP server: a hostile store's views read no local file, a page whose name was rebound to
 * this machine is refused (Host and Origin), integer parameters never wrap, and equal rows come in a fixed order.
 */
class HostileRequestsTest {
    static final String SECRET = "the-secret-line-7c1f";
    static final ObjectMapper json = new ObjectMapper();

    @TempDir
    static Path dir;
    static TraceServer server;
    static TraceServer guarded;
    static int port;
    static int guardedPort;
    static long counterTrack;
    static long tiesTrack;
    static final List<String> TIE_NAMES = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, SECRET + "\n");
        Path hostile = dir.resolve("hostile.duckdb");
        counterTrack = SyntheticTrace.write(hostile, 50, 1).counterTrack;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + hostile); Statement st = c.createStatement()) {
            st.execute("CREATE VIEW notes AS SELECT * FROM read_text('" + secret + "')");
        }
        Path ties = dir.resolve("ties.duckdb");
        try (StoreWriter w = StoreWriter.create(ties)) {
            tiesTrack = w.newId(Entity.TRACK);
            w.track(Track.of(tiesTrack, null, TrackKind.THREAD, "t"));
            for (int i = 0; i < 40; i++) {
                TIE_NAMES.add(String.format("n%02d", i));
            }
            List<String> shuffled = new ArrayList<>(TIE_NAMES);
            Collections.shuffle(shuffled, new Random(7));
            long ts = 0;
            for (String name : shuffled) {
                w.slice(new Slice(w.newId(Entity.SLICE), tiesTrack, ts, 100, name, Category.KERNEL, null, -1, null,
                        null));
                ts += 200;
            }
            w.commit();
        }
        server = new TraceServer(List.of(new TraceView("hostile", Store.open(hostile)),
                new TraceView("ties", Store.open(ties))), new AccessPolicy(null));
        port = server.start("127.0.0.1", 0);
        guarded = new TraceServer(List.of(new TraceView("hostile", Store.open(hostile))),
                new AccessPolicy("token-for-tests"));
        guardedPort = guarded.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
        guarded.close();
    }

    /** Status line and body of a GET sent with exactly these headers (a browser's Host and Origin included). */
    static String[] get(int port, String target, String... headers) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            StringBuilder req = new StringBuilder("GET " + target + " HTTP/1.1\r\n");
            for (String h : headers) {
                req.append(h).append("\r\n");
            }
            req.append("Connection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            s.getInputStream().transferTo(buf);
            String r = buf.toString(StandardCharsets.UTF_8);
            int body = r.indexOf("\r\n\r\n");
            return new String[] {r.substring(0, r.indexOf("\r\n")), body < 0 ? "" : r.substring(body + 4)};
        }
    }

    static String[] local(String target) throws Exception {
        return get(port, target, "Host: 127.0.0.1:" + port);
    }

    @Test
    void aHostileStoresViewsReadNoLocalFile() throws Exception {
        String[] list = local("/api/t/0/tables");
        assertTrue(list[0].contains(" 200"), list[0]);
        assertFalse(list[1].contains("store.notes"), "views are not offered as store tables: " + list[1]);
        String[] notes = local("/api/t/0/tables/store.notes");
        assertFalse(notes[0].contains(" 200"), notes[0]);
        assertFalse(notes[1].contains(SECRET), notes[1]);
        // the report of the same store
        Path html = dir.resolve("r.html");
        try (TraceView v = new TraceView("hostile", Store.open(dir.resolve("hostile.duckdb")))) {
            ReportWriter.write(v, html);
        }
        assertFalse(Files.readString(html).contains(SECRET));
    }

    @Test
    void onLoopbackOnlyLoopbackNamesAreServed() throws Exception {
        for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "localhost", "[::1]:" + port,
                "127.0.0.2", "app.localhost:" + port, "LOCALHOST.:" + port)) {
            String[] r = get(port, "/api/traces", "Host: " + host);
            assertTrue(r[0].contains(" 200"), host + " -> " + r[0]);
        }
        // a DNS-rebinding page: its own name, now resolving to 127.0.0.1, is in the Host header
        for (String host : List.of("evil.example:" + port, "evil.example", "127.0.0.1.evil.example", "")) {
            String[] r = get(port, "/api/traces", "Host: " + host);
            assertTrue(r[0].contains(" 403") || r[0].contains(" 400"), host + " -> " + r[0]);
            assertFalse(r[1].contains("hostile"), host + " -> " + r[1]);
        }
        String[] page = get(port, "/", "Host: evil.example");
        assertTrue(page[0].contains(" 403"), page[0]);
        // API requests a browser marks with a foreign Origin
        String[] foreign = get(port, "/api/traces", "Host: 127.0.0.1:" + port, "Origin: http://evil.example");
        assertTrue(foreign[0].contains(" 403"), foreign[0]);
        assertTrue(json.readTree(foreign[1]).get("error").asText().contains("Origin"), foreign[1]);
        assertTrue(get(port, "/api/traces", "Host: 127.0.0.1:" + port, "Origin: null")[0].contains(" 403"));
        assertTrue(get(port, "/api/traces", "Host: localhost:" + port, "Origin: http://localhost:" + port)[0]
                .contains(" 200"));
        // with a token, other names keep working (the token is the check there)
        String[] tokened = get(guardedPort, "/api/traces", "Host: trace-box.example:" + guardedPort,
                AccessPolicy.HEADER + ": token-for-tests");
        assertTrue(tokened[0].contains(" 200"), tokened[0]);
    }

    @Test
    void integerParametersOutsideTheirRangeAreRefusedNotWrapped() throws Exception {
        String counter = "/api/t/0/counter?track=" + counterTrack + "&t0=0&t1=1000000&px=";
        assertTrue(local(counter + "100")[0].contains(" 200"));
        for (String target : List.of(counter + "4294967297", counter + "-4294967295",
                "/api/t/0/window?t0=0&t1=1000&tracks=" + counterTrack + "&px=4294967297",
                "/api/t/0/durations?name=k&max=-4294967295", "/api/t/0/durations?name=k&max=4294967297")) {
            String[] r = local(target);
            assertTrue(r[0].contains(" 400"), target + " -> " + r[0] + " " + r[1]);
            JsonNode e = json.readTree(r[1]).get("error");
            assertTrue(e.asText().contains("out of range"), target + " -> " + r[1]);
        }
    }

    @Test
    void rangeRowsWithEqualValuesComeSortedByName() throws Exception {
        String[] r = local("/api/t/1/range?tracks=" + tiesTrack + "&t0=0&t1=100000");
        assertTrue(r[0].contains(" 200"), r[0] + r[1]);
        List<String> names = new ArrayList<>();
        for (JsonNode row : json.readTree(r[1]).get("rows")) {
            names.add(row.get(0).asText());
        }
        assertEquals(TIE_NAMES, names);
    }
}
