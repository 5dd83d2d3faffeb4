package org.hetscope.analysis.mining.windows;

/**
 * Latency labels of fixed-width bins (spec section 2): bin k = floor(lat / width) is {@code lat_{k w}_{(k+1) w}};
 * latencies at or above {@code max} get {@code lat_{max}_inf}. Method I uses width 20 up to 140, method II 10 up
 * to 250.
 */
public record LatencyBins(long width, long max) {
    public static final LatencyBins METHOD_I = new LatencyBins(20, 140);
    public static final LatencyBins METHOD_II = new LatencyBins(10, 250);

    public LatencyBins {
        if (width <= 0 || max < width) {
            throw new IllegalArgumentException("latency bins need width > 0 and max >= width");
        }
    }

    public String label(long latency) {
        if (latency >= max) {
            return "lat_" + max + "_inf";
        }
        long k = Math.floorDiv(latency, width);
        return "lat_" + k * width + "_" + (k + 1) * width;
    }
}
