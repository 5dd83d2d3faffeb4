package org.hetscope.web;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.StoreException;
import org.hetscope.store.Table;

/**
 * The web timeline's HTTP server: the page's assets from the jar and a JSON API over one or more stores.
 * All API times are nanoseconds relative to each trace's origin (see {@link TraceView}).
 */
public final class TraceServer implements AutoCloseable {
    /** Longest accepted query string; longer requests are answered 414 before any work. */
    public static final int MAX_QUERY_CHARS = 65_536;
    static final String ASSETS = "/org/hetscope/web/assets";

    private final List<TraceView> traces;
    private final AccessPolicy policy;
    private final AnalysisTables tables = AnalysisTables.standard();
    private final Map<String, Table> computed = new java.util.concurrent.ConcurrentHashMap<>();
    private Javalin app;
    /** The host name the server listens on (a loopback name unless a token is set). */
    private String boundHost;

    public TraceServer(List<TraceView> traces, AccessPolicy policy) {
        this.traces = List.copyOf(traces);
        this.policy = policy;
    }

    public AnalysisTables tables() {
        return tables;
    }

    /** Starts listening; port 0 picks a free port. Returns the port. */
    public int start(String host, int port) {
        if (policy.token() == null && !isLoopback(host)) {
            throw new IllegalArgumentException("binding to " + host + " needs an access token (--token)");
        }
        boundHost = host;
        warmUp();
        // After the warm-up: slices start loading into memory once a page asks for a window.
        for (TraceView t : traces) {
            t.holdSlicesInMemory();
        }
        boolean hasAssets = TraceServer.class.getResource(ASSETS + "/index.html") != null;
        app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.http.maxRequestSize = 1_000_000;
            config.jetty.modifyHttpConfiguration(http -> http.setRequestHeaderSize(MAX_QUERY_CHARS + 4096));
            if (hasAssets) {
                config.staticFiles.add(s -> {
                    s.hostedPath = "/";
                    s.directory = ASSETS;
                    s.location = Location.CLASSPATH;
                    s.precompress = false;
                });
            }
        });
        app.before(this::checkAccess);
        app.exception(BadQueryException.class, (e, ctx) -> error(ctx, HttpStatus.BAD_REQUEST, e.getMessage()));
        app.exception(NumberFormatException.class,
                (e, ctx) -> error(ctx, HttpStatus.BAD_REQUEST, "not a number: " + e.getMessage()));
        app.exception(StoreException.class,
                (e, ctx) -> error(ctx, HttpStatus.INTERNAL_SERVER_ERROR, "query failed: " + e.getMessage()));
        app.error(HttpStatus.NOT_FOUND, ctx -> {
            if (ctx.result() == null) {
                error(ctx, HttpStatus.NOT_FOUND, "not found: " + ctx.path());
            }
        });
        routes();
        app.start(host, port);
        return app.port();
    }

    /**
     * Computes and writes one whole-trace window per trace before serving, so that the page's first request does
     * not also pay for loading and compiling the window code (several hundred ms in a fresh JVM).
     */
    private void warmUp() {
        for (TraceView t : traces) {
            List<Long> ids = t.tracks().stream().filter(x -> x.slices() > 0).map(TraceView.TrackInfo::id)
                    .limit(64).toList();
            if (!ids.isEmpty()) {
                Map<Long, List<WindowItem>> w = t.window(ids, 0, t.span(), 1920, null);
                WindowJson.write(0, t.span(), 1920, w);
                WindowBinary.write(0, t.span(), 1920, w);
            }
        }
    }

    private void window(Context ctx, boolean binary) throws java.io.IOException {
        TraceView t = trace(ctx);
        long t0 = longParam(ctx, "t0");
        long t1 = longParam(ctx, "t1");
        int px = intParam(ctx, "px");
        List<Long> ids = idsParam(ctx, "tracks");
        Map<Long, List<WindowItem>> w = t.window(ids, t0, t1, px, ctx.queryParam("highlight"));
        byte[] body = binary ? WindowBinary.write(t0, t1, px, w) : WindowJson.write(t0, t1, px, w);
        if (isLoopbackClient(ctx)) {
            // Compressing a whole-trace response (~1 MB) takes longer than handing it over on this machine.
            ctx.disableCompression();
        }
        ctx.contentType(binary ? "application/octet-stream" : "application/json");
        ctx.header("Content-Length", Integer.toString(body.length));
        ctx.outputStream().write(body);
    }

    private static boolean isLoopbackClient(Context ctx) {
        try {
            return InetAddress.getByName(ctx.req().getRemoteAddr()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host " + host, e);
        }
    }

    private void checkAccess(Context ctx) {
        String query = ctx.queryString();
        if (query != null && query.length() > MAX_QUERY_CHARS) {
            error(ctx, HttpStatus.URI_TOO_LONG, "query longer than " + MAX_QUERY_CHARS + " characters");
            ctx.skipRemainingHandlers();
            return;
        }
        String presented = ctx.header(AccessPolicy.HEADER);
        if (presented == null) {
            presented = ctx.queryParam("token");
        }
        if (presented == null) {
            presented = ctx.cookie(AccessPolicy.COOKIE);
        }
        InetAddress client;
        try {
            client = InetAddress.getByName(ctx.req().getRemoteAddr());
        } catch (UnknownHostException e) {
            client = null;
        }
        if (policy.token() == null) {
            String host = ctx.header("Host");
            String origin = ctx.header("Origin");
            String bad = !AccessPolicy.loopbackHost(host, boundHost) ? "Host header '" + host + "'"
                    : origin != null && ctx.path().startsWith("/api/") && !AccessPolicy.loopbackOrigin(origin, boundHost)
                    ? "Origin '" + origin + "'" : null;
            if (bad != null) {
                // A page from elsewhere whose name now points at this machine: refused whatever the client address.
                error(ctx, HttpStatus.FORBIDDEN, bad + " does not name this machine; open the URL printed by "
                        + "'hetscope serve' (or start it with --token to serve other hosts)");
                ctx.skipRemainingHandlers();
                return;
            }
        }
        if (!policy.allows(client, presented)) {
            error(ctx, HttpStatus.UNAUTHORIZED, policy.token() == null
                    ? "this server only serves clients on its own machine"
                    : "missing or wrong access token: open the URL printed by 'hetscope serve'");
            ctx.skipRemainingHandlers();
            return;
        }
        if (policy.token() != null && ctx.queryParam("token") != null) {
            // Lets the page's own asset and API requests carry the token without putting it in every URL.
            ctx.cookie(new io.javalin.http.Cookie(AccessPolicy.COOKIE, policy.token(), "/", -1, false, 0, true,
                    null, null, io.javalin.http.SameSite.STRICT));
        }
    }

    private static void error(Context ctx, HttpStatus status, String message) {
        ctx.status(status);
        ctx.json(Map.of("error", message == null ? status.getMessage() : message));
    }

    private void routes() {
        app.get("/api/traces", ctx -> {
            List<Map<String, Object>> out = new ArrayList<>();
            for (int i = 0; i < traces.size(); i++) {
                TraceView t = traces.get(i);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("index", i);
                m.put("name", t.name());
                m.put("origin", Long.toString(t.origin()));
                m.put("span", t.span());
                m.put("tracks", t.tracks().size());
                out.add(m);
            }
            ctx.json(out);
        });
        app.get("/api/t/{trace}/tracks", ctx -> ctx.json(trace(ctx).tracks()));
        app.get("/api/t/{trace}/window", ctx -> window(ctx, false));
        // The same items in the compact form the page reads (WindowBinary).
        app.get("/api/t/{trace}/window.bin", ctx -> window(ctx, true));
        app.get("/api/t/{trace}/counter", ctx -> ctx.json(trace(ctx).counter(longParam(ctx, "track"),
                longParam(ctx, "t0"), longParam(ctx, "t1"), intParam(ctx, "px"))));
        app.get("/api/t/{trace}/instants", ctx -> ctx.json(trace(ctx).instants(idsParam(ctx, "tracks"),
                longParam(ctx, "t0"), longParam(ctx, "t1"), intParam(ctx, "px"))));
        app.get("/api/t/{trace}/instant/{id}", ctx -> ctx.json(trace(ctx).instant(
                parseLong("instant id", ctx.pathParam("id")))));
        app.get("/api/t/{trace}/colours", ctx -> ctx.json(trace(ctx).declaredColours()));
        app.get("/api/t/{trace}/flows", ctx -> ctx.json(trace(ctx).flows(longParam(ctx, "t0"),
                longParam(ctx, "t1"))));
        app.get("/api/t/{trace}/slice/{id}", ctx -> ctx.json(trace(ctx).slice(
                parseLong("slice id", ctx.pathParam("id")))));
        app.get("/api/t/{trace}/durations", ctx -> ctx.json(trace(ctx).durations(ctx.queryParam("name"),
                ctx.queryParam("category"), intParam(ctx, "max"))));
        app.get("/api/t/{trace}/search", ctx -> ctx.json(tableJson("search", trace(ctx).search(
                ctx.queryParam("q"), 50))));
        app.get("/api/t/{trace}/range", ctx -> ctx.json(tableJson("selection", trace(ctx).range(
                idsParam(ctx, "tracks"), longParam(ctx, "t0"), longParam(ctx, "t1")))));
        app.get("/api/t/{trace}/tables", ctx -> {
            List<Map<String, Object>> out = new ArrayList<>();
            for (AnalysisTables.Provider p : tables.list(trace(ctx).store())) {
                out.add(Map.of("name", p.name(), "title", p.title(), "group", p.group()));
            }
            ctx.json(out);
        });
        app.get("/api/t/{trace}/tables/{name}", ctx -> {
            TraceView t = trace(ctx);
            // Stores are read-only, so a computed table stays right for the server's lifetime.
            String key = t.hashCode() + "/" + ctx.pathParam("name");
            Table table = computed.get(key);
            if (table == null) {
                synchronized (t) {
                    table = tables.compute(t.store(), ctx.pathParam("name"));
                }
                computed.put(key, table);
            }
            ctx.json(tableJson(ctx.pathParam("name"), table));
        });
        app.get("/api/t/{trace}/events", ctx -> {
            TraceView t = trace(ctx);
            long t0 = longParam(ctx, "t0");
            long t1 = longParam(ctx, "t1");
            t.checkWindow(t0, t1, 1);
            List<Long> ids = ctx.queryParam("tracks") == null ? List.of() : idsParam(ctx, "tracks");
            t.checkTracks(ids);
            String find = ctx.queryParam("find");
            String findInstant = ctx.queryParam("find_instant");
            ctx.json(EventTable.page(t, new EventTable.Query(t0, t1, ids, ctx.queryParam("name"),
                    ctx.queryParam("category"), ctx.queryParam("args"),
                    ctx.queryParamAsClass("sort", String.class).getOrDefault("ts"),
                    "desc".equals(ctx.queryParam("dir")),
                    ctx.queryParam("offset") == null ? 0 : longParam(ctx, "offset"),
                    ctx.queryParam("limit") == null ? 100 : intParam(ctx, "limit"),
                    findInstant != null && !findInstant.isEmpty() ? Long.valueOf(parseLong("find_instant", findInstant))
                            : find == null || find.isEmpty() ? null : parseLong("find", find),
                    findInstant != null && !findInstant.isEmpty() ? "instant" : "slice")));
        });
        app.get("/api/t/{trace}/aggregates", ctx -> ctx.json(RangeAggregates.of(trace(ctx),
                idsParam(ctx, "tracks"), longParam(ctx, "t0"), longParam(ctx, "t1"))));
        app.get("/api/t/{trace}/find", ctx -> {
            TraceView t = trace(ctx);
            String tsText = ctx.queryParam("ts");
            Long ts = tsText == null || tsText.isEmpty() ? null : parseLong("ts", tsText);
            if (ts != null) {
                // the same bounds as a window's: origin + ts must stay inside a long
                t.checkWindow(ts, ts == Long.MAX_VALUE ? ts : ts + 1, 1);
            }
            String id = ctx.queryParam("id");
            ctx.json(EventTable.find(t, ctx.queryParam("q"), ts,
                    id == null || id.isEmpty() ? null : parseLong("id", id), "prev".equals(ctx.queryParam("dir"))));
        });
        new ViewRoutes(this::trace, (ctx, name) -> trace(parseLong("trace " + name, stringParam(ctx, name))))
                .register(app);
        app.get("/api/*", ctx -> error(ctx, HttpStatus.NOT_FOUND, "no API endpoint " + ctx.path()));
    }

    static Map<String, Object> tableJson(String name, Table t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("title", t.title());
        m.put("columns", t.columns());
        m.put("rows", t.rows());
        return m;
    }

    private TraceView trace(Context ctx) {
        return trace(parseLong("trace index", ctx.pathParam("trace")));
    }

    private static String stringParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null) {
            throw new BadQueryException("missing query parameter '" + name + "'");
        }
        return v;
    }

    private TraceView trace(long i) {
        if (i < 0 || i >= traces.size()) {
            throw new BadQueryException("no trace " + i + "; this server has " + traces.size());
        }
        return traces.get((int) i);
    }

    private static long longParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null) {
            throw new BadQueryException("missing query parameter '" + name + "'");
        }
        return parseLong(name, v);
    }

    /** An int query parameter; values outside int's range are refused rather than wrapped or clamped. */
    private static int intParam(Context ctx, String name) {
        long v = longParam(ctx, name);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new BadQueryException(name + "=" + v + " is out of range");
        }
        return (int) v;
    }

    private static long parseLong(String what, String v) {
        if (v.length() > 20) {
            throw new BadQueryException(what + " is not a number: too long");
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new BadQueryException(what + " is not an integer: '" + v + "'");
        }
    }

    private static List<Long> idsParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null) {
            throw new BadQueryException("missing query parameter '" + name + "'");
        }
        List<Long> ids = new ArrayList<>();
        if (v.isBlank()) {
            return ids;
        }
        for (String s : v.split(",", -1)) {
            ids.add(parseLong("track id", s));
            if (ids.size() > TraceView.MAX_TRACKS_PER_REQUEST) {
                throw new BadQueryException("more than " + TraceView.MAX_TRACKS_PER_REQUEST + " tracks in one request");
            }
        }
        return ids;
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        if (app != null) {
            app.stop();
        }
        for (TraceView t : traces) {
            t.close();
        }
    }
}
