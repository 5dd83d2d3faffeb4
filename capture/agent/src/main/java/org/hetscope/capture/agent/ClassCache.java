package org.hetscope.capture.agent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.stream.Stream;

/**
 * Keeps the instrumented bytes of {@code org.jocl.CL} on disk, keyed by the original class bytes and the agent
 * build, so that later runs skip ByteBuddy entirely (its start-up is most of the agent's fixed cost).
 */
final class ClassCache {
    private final Path dir;
    private final String agentId;

    ClassCache(Path dir) {
        this.dir = dir;
        this.agentId = agentId();
    }

    Path file(byte[] original) {
        return dir == null ? null : dir.resolve("CL-" + sha(original).substring(0, 24) + "-" + agentId + ".class");
    }

    byte[] get(byte[] original) {
        Path f = file(original);
        try {
            return f != null && Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
        } catch (IOException e) {
            return null;
        }
    }

    void put(byte[] original, byte[] woven) {
        Path f = file(original);
        if (f == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "CL", ".tmp");
            Files.write(tmp, woven);
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // a cache that cannot be written only costs time
        }
    }

    /** Identifies this build of the agent: the jar's size and time, or a hash of the class files. */
    private static String agentId() {
        try {
            Path self = Path.of(Premain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self)) {
                return Long.toHexString(Files.size(self)) + Long.toHexString(Files.getLastModifiedTime(self)
                        .toMillis());
            }
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            Path pkg = self.resolve("org/hetscope/capture/agent");
            try (Stream<Path> s = Files.walk(pkg)) {
                for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                    md.update(p.toString().getBytes());
                    try (InputStream in = Files.newInputStream(p)) {
                        md.update(in.readAllBytes());
                    }
                }
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (Exception e) {
            return "nocache" + System.nanoTime();
        }
    }

    private static String sha(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
