package org.hetscope.analysis.profiling;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What the roofline needs beyond the trace, from a small properties file: {@code peakFlops} (FLOP/s),
 * {@code peakBandwidth} (B/s), and which counters (raw names or expressions) give a dispatch's {@code flops}
 * and {@code bytes}. Peaks left out come from the device metadata of the trace.
 */
public record DeviceProfile(Double peakFlops, Double peakBandwidth, String flops, String bytes) {

    public static DeviceProfile read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        try {
            return new DeviceProfile(number(p, "peakFlops"), number(p, "peakBandwidth"), p.getProperty("flops"),
                    p.getProperty("bytes"));
        } catch (NumberFormatException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static Double number(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? null : Double.valueOf(v.trim());
    }
}
