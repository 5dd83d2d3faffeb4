package org.hetscope.model;

/**
 * Bounds that keep one damaged spot of an input from taking the whole heap: a JSON string or a text line longer
 * than {@link #maxTokenBytes()} is counted as damage and stepped over instead of being held in memory (a few MB of
 * gzip can unpack to a single GB-long string).
 */
public final class InputLimits {
    /** The system property that sets {@link #maxTokenBytes()} ({@code -Dhetscope.maxTokenBytes=N}). */
    public static final String MAX_TOKEN_PROPERTY = "hetscope.maxTokenBytes";
    /** Default of {@link #maxTokenBytes()}: 64 MiB, far above any real name or args text. */
    public static final int DEFAULT_MAX_TOKEN_BYTES = 64 << 20;

    private InputLimits() {}

    /**
     * The longest single token (JSON string, JSON member name) or line a reader holds, in bytes (characters for
     * JSON text); read at each call so that tests can lower it. At least 1 KiB.
     */
    public static int maxTokenBytes() {
        long v = Long.getLong(MAX_TOKEN_PROPERTY, DEFAULT_MAX_TOKEN_BYTES);
        return (int) Math.max(1024, Math.min(Integer.MAX_VALUE - 16, v));
    }
}
