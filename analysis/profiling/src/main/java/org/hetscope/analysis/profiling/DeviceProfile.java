package org.hetscope.analysis.profiling;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What the analyses need beyond the trace, from a small properties file: {@code peakFlops} (FLOP/s),
 * {@code peakBandwidth} (B/s), which counters (raw names or expressions) give a dispatch's {@code flops} and
 * {@code bytes} (roofline), and {@code warpSize}, the warp/wavefront size (advice; rocprof's results.csv may not
 * carry it). Values left out come from the device metadata of the trace.
 */
public record DeviceProfile(Double peakFlops, Double peakBandwidth, String flops, String bytes, Integer warpSize) {

    public DeviceProfile(Double peakFlops, Double peakBandwidth, String flops, String bytes) {
        this(peakFlops, peakBandwidth, flops, bytes, null);
    }

    public static DeviceProfile read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        try {
            Double warp = number(p, "warpSize");
            if (warp != null && (warp <= 0 || warp != Math.rint(warp) || warp > Integer.MAX_VALUE)) {
                throw new NumberFormatException("warpSize must be a positive whole number, got "
                        + p.getProperty("warpSize").trim());
            }
            return new DeviceProfile(number(p, "peakFlops"), number(p, "peakBandwidth"), p.getProperty("flops"),
                    p.getProperty("bytes"), warp == null ? null : warp.intValue());
        } catch (NumberFormatException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static Double number(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? null : Double.valueOf(v.trim());
    }
}
