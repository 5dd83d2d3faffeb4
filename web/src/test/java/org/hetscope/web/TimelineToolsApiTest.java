package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hetscope.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event table, search-step and area-selection endpoints refuse malformed requests with a 400 and a message
 * (no 500, no stack trace), and answer well-formed ones.
 */
class TimelineToolsApiTest {
    @TempDir
    static Path dir;
    static TraceServer server;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        Path store = dir.resolve("t.duckdb");
        SyntheticTrace.write(store, 200, 5);
        server = new TraceServer(List.of(new TraceView("t", Store.open(store))), new AccessPolicy(null));
        port = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String[] get(String target) throws Exception {
        return HostileRequestsTest.get(port, target, "Host: 127.0.0.1:" + port);
    }

    @Test
    void malformedRequestsAreRefusedWithAMessage() throws Exception {
        String[] bad = {
            "/api/t/0/events?t0=0&t1=1000&sort=args",
            "/api/t/0/events?t0=0&t1=1000&limit=0",
            "/api/t/0/events?t0=0&t1=1000&limit=100000",
            "/api/t/0/events?t0=0&t1=1000&offset=-5",
            "/api/t/0/events?t0=1000&t1=0",
            "/api/t/0/events?t0=0&t1=1000&tracks=999999",
            "/api/t/0/events?t0=0&t1=1000&find=abc",
            "/api/t/0/events?t0=-9223372036854775808&t1=9223372036854775807",
            "/api/t/0/find?q=",
            "/api/t/0/find?q=op&ts=9223372036854775807&id=1",
            "/api/t/0/find?q=op&ts=-9223372036854775808&id=1",
            "/api/t/0/find?q=op&ts=1&id=x",
            "/api/t/0/aggregates?t0=0&t1=1000",
            "/api/t/0/aggregates?t0=0&t1=1000&tracks=1,x",
            "/api/t/0/aggregates?t0=5&t1=5&tracks=1",
        };
        for (String target : bad) {
            String[] r = get(target);
            assertTrue(r[0].contains(" 400"), target + ": " + r[0] + " " + r[1]);
            assertTrue(r[1].contains("\"error\""), target + ": " + r[1]);
            assertTrue(!r[1].contains("Exception"), target + ": " + r[1]);
        }
    }

    @Test
    void wellFormedRequestsAnswer() throws Exception {
        for (String target : List.of("/api/t/0/events?t0=0&t1=100000000&sort=dur&dir=desc&name=kernel&limit=5",
                "/api/t/0/find?q=aten&dir=prev", "/api/t/0/aggregates?t0=0&t1=100000000&tracks=1,2,3")) {
            String[] r = get(target);
            assertTrue(r[0].contains(" 200"), target + ": " + r[0] + " " + r[1]);
        }
    }
}
