package org.hetscope.cli.web;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.hetscope.store.Store;
import org.hetscope.web.AccessPolicy;
import org.hetscope.web.TraceServer;
import org.hetscope.web.TraceView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope serve FILE...}: the web timeline for stores (or traces, imported on the fly). */
@Command(name = "serve", description = "Show stores in the browser: a zoomable timeline, flows, statistics.")
public final class ServeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Store files (or trace files to import first).")
    List<Path> files;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to bind (default ${DEFAULT-VALUE}); any other than loopback needs a token.")
    String host;

    @Option(names = "--port", defaultValue = "0", description = "Port (default: a free one).")
    int port;

    @Option(names = "--token", description = "Access token the page must present; generated when --host is not "
            + "loopback and none is given.")
    String token;

    @Override
    public Integer call() throws Exception {
        boolean loopback = java.net.InetAddress.getByName(host).isLoopbackAddress();
        if (token == null && !loopback) {
            byte[] b = new byte[16];
            new SecureRandom().nextBytes(b);
            token = HexFormat.of().formatHex(b);
        }
        List<TraceView> views = new ArrayList<>();
        for (Path f : files) {
            Store s = StoreOpener.open(f);
            views.add(new TraceView(f.getFileName().toString(), s));
        }
        TraceServer server = new TraceServer(views, new AccessPolicy(token));
        int bound = server.start(host, port);
        String shownHost = host.contains(":") ? "[" + host + "]" : host;
        String url = "http://" + shownHost + ":" + bound + "/" + (token == null ? "" : "?token=" + token);
        System.out.println("hetscope: serving " + files.size() + " trace(s) at " + url);
        System.out.println("hetscope: press Ctrl-C to stop");
        System.out.flush();
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stop.countDown();
        }, "hetscope-serve-stop"));
        stop.await();
        return 0;
    }
}
