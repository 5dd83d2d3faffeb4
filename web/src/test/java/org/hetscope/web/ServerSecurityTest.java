package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Access control, asset confinement and query validation of the HTTP server, over real loopback HTTP. */
class ServerSecurityTest {
    @TempDir
    static Path dir;
    static TraceServer open;
    static TraceServer guarded;
    static int openPort;
    static int guardedPort;
    static final String TOKEN = "s3cret-token-for-tests";
    static final HttpClient http = HttpClient.newHttpClient();
    static final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        SyntheticTrace.write(dir.resolve("a.duckdb"), 200, 1);
        open = new TraceServer(List.of(new TraceView("a", Store.open(dir.resolve("a.duckdb")))),
                new AccessPolicy(null));
        openPort = open.start("127.0.0.1", 0);
        guarded = new TraceServer(List.of(new TraceView("a", Store.open(dir.resolve("a.duckdb")))),
                new AccessPolicy(TOKEN));
        guardedPort = guarded.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        open.close();
        guarded.close();
    }

    static HttpResponse<String> get(int port, String pathAndQuery, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends the request line exactly as written, so no client normalises {@code ..} away. */
    static String raw(int port, String target) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            in.transferTo(buf);
            return buf.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void loopbackClientsAreServedWithoutToken() throws Exception {
        HttpResponse<String> r = get(openPort, "/api/traces");
        assertEquals(200, r.statusCode());
        assertEquals("a", json.readTree(r.body()).get(0).get("name").asText());
    }

    @Test
    void nonLoopbackClientsNeedTheToken() throws Exception {
        AccessPolicy noToken = new AccessPolicy(null);
        InetAddress remote = InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 10}); // TEST-NET-1, never contacted
        assertFalse(noToken.allows(remote, null));
        assertFalse(noToken.allows(remote, "anything"));
        assertTrue(noToken.allows(InetAddress.getLoopbackAddress(), null));
        AccessPolicy withToken = new AccessPolicy(TOKEN);
        assertFalse(withToken.allows(remote, null));
        assertFalse(withToken.allows(remote, TOKEN + "x"));
        assertTrue(withToken.allows(remote, TOKEN));
        // Binding beyond loopback without a token is refused before anything listens.
        TraceServer s = new TraceServer(List.of(), new AccessPolicy(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.start("0.0.0.0", 0));
        assertTrue(e.getMessage().contains("token"));
    }

    @Test
    void tokenServerRefusesRequestsWithoutIt() throws Exception {
        HttpResponse<String> denied = get(guardedPort, "/api/traces");
        assertEquals(401, denied.statusCode());
        assertTrue(json.readTree(denied.body()).get("error").asText().contains("token"));
        assertEquals(401, get(guardedPort, "/").statusCode());
        assertEquals(401, get(guardedPort, "/api/traces", AccessPolicy.HEADER, "wrong-token-123").statusCode());
        assertEquals(200, get(guardedPort, "/api/traces", AccessPolicy.HEADER, TOKEN).statusCode());
        HttpResponse<String> viaQuery = get(guardedPort, "/api/traces?token=" + TOKEN);
        assertEquals(200, viaQuery.statusCode());
        String cookie = viaQuery.headers().firstValue("set-cookie").orElseThrow();
        assertTrue(cookie.contains("HttpOnly") && cookie.contains(AccessPolicy.COOKIE));
        assertEquals(200, get(guardedPort, "/api/traces", "Cookie", AccessPolicy.COOKIE + "=" + TOKEN).statusCode());
    }

    @Test
    void servesThePageButNoFileOutsideItsAssets() throws Exception {
        String index = raw(openPort, "/");
        assertTrue(index.startsWith("HTTP/1.1 200"), index.lines().findFirst().orElse(""));
        assertTrue(index.contains("<canvas id=\"timeline\""));
        for (String target : new String[] {"/../pom.xml", "/..%2f..%2fpom.xml", "/%2e%2e/%2e%2e/pom.xml",
            "/static/../../TraceServer.class", "/static/%2e%2e/%2e%2e/TraceServer.class",
            "/org/hetscope/web/TraceServer.class", "/../../../../../../etc/passwd", "/..\\..\\etc\\passwd",
            "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/META-INF/MANIFEST.MF", "//etc/passwd"}) {
            String r = raw(openPort, target);
            String status = r.lines().findFirst().orElse("");
            assertFalse(status.contains(" 200"), target + " answered " + status);
            assertFalse(r.contains("root:x:0:0"), target);
            assertFalse(r.contains("\u00ca\u00fe\u00ba\u00be"), target + " leaked a class file");
        }
    }

    @Test
    void malformedQueriesGet400WithAMessage() throws Exception {
        String base = "/api/t/0/window?t0=0&t1=1000&px=100&tracks=";
        String[][] cases = {
            {"/api/t/0/window?t1=10&px=5&tracks=1", "t0"},
            {"/api/t/0/window?t0=abc&t1=10&px=5&tracks=1", "t0"},
            {"/api/t/0/window?t0=0&t1=10&px=0&tracks=1", "px"},
            {"/api/t/0/window?t0=0&t1=10&px=99999999&tracks=1", "px"},
            {"/api/t/0/window?t0=50&t1=10&px=5&tracks=1", "t1"},
            {base + "424242", "424242"},
            {base + "1,,2", "track"},
            {"/api/t/7/tracks", "trace 7"},
            {"/api/t/x/tracks", "trace"},
            {"/api/t/0/slice/123456789", "123456789"},
            {"/api/t/0/search?q=", "q"},
            {"/api/t/0/tables/nope", "nope"},
            {"/api/t/0/window?t0=99999999999999999999999&t1=10&px=5&tracks=1", "t0"},
            // the compact form the page reads: the same checks, answered as JSON errors
            {"/api/t/0/window.bin?t0=0&t1=10&px=0&tracks=1", "px"},
            {"/api/t/0/window.bin?t0=50&t1=10&px=5&tracks=1", "t1"},
            {"/api/t/0/window.bin?t0=0&t1=1000&px=100&tracks=424242", "424242"},
        };
        for (String[] c : cases) {
            HttpResponse<String> r = get(openPort, c[0]);
            assertEquals(400, r.statusCode(), c[0] + " -> " + r.body());
            JsonNode body = json.readTree(r.body());
            assertTrue(body.get("error").asText().contains(c[1]), c[0] + " -> " + r.body());
        }
        assertEquals(404, get(openPort, "/api/nothing-here").statusCode());
    }

    /**
     * Like {@link #raw}, for a request the server refuses before reading all of it: it answers and closes while the
     * request is still being written, so the write can fail with a broken pipe and the connection reset can discard
     * the answer. Returns what could be read, or "" when the server closed without an answer reaching us.
     */
    static String rawTolerant(int port, String target) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            try {
                OutputStream out = s.getOutputStream();
                out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (java.io.IOException refusedWhileWriting) {
                // read what the server sent before it closed
            }
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(buf);
            } catch (java.io.IOException reset) {
                // keep what arrived before the reset
            }
            return buf.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void oversizedQueriesAreRefused() throws Exception {
        String many = "1,".repeat(TraceView.MAX_TRACKS_PER_REQUEST + 10) + "1";
        HttpResponse<String> r = get(openPort, "/api/t/0/window?t0=0&t1=10&px=5&tracks=" + many);
        assertEquals(400, r.statusCode());
        assertTrue(json.readTree(r.body()).get("error").asText().contains("tracks"));
        HttpResponse<String> longQuery = get(openPort, "/api/t/0/search?q=" + "x".repeat(TraceServer.MAX_QUERY_CHARS));
        assertEquals(414, longQuery.statusCode());
        assertTrue(json.readTree(longQuery.body()).get("error").asText().contains("longer"));
        String huge = rawTolerant(openPort, "/api/t/0/search?q=" + "y".repeat(300_000));
        if (!huge.isEmpty()) {
            int status = Integer.parseInt(huge.substring(9, 12));
            assertTrue(status >= 400 && status < 500, huge.lines().findFirst().orElse(""));
            assertNotEquals(200, status);
        }
    }
}
