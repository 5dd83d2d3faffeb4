package org.hetscope.capture.kernels;

import static org.hetscope.capture.kernels.run.KernelArgument.floats;
import static org.hetscope.capture.kernels.run.KernelArgument.intValue;
import static org.hetscope.capture.kernels.run.KernelArgument.ints;
import static org.hetscope.capture.kernels.run.KernelArgument.local;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hetscope.capture.kernels.run.NdRange;

/**
 * The kernel suite of the tests and the benchmark, each with a Java model of its algorithm that counts what
 * the instrumenter must count (the counting rules of docs/schema.md, applied by hand to the algorithm).
 */
public final class Suite {
    private Suite() {}

    static int[] randomInts(long seed, int n, int bound) {
        Random r = new Random(seed);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextInt(bound);
        }
        return out;
    }

    static float[] randomFloats(long seed, int n) {
        Random r = new Random(seed);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextFloat();
        }
        return out;
    }

    private static void add(Map<String, Long> m, String key, long v) {
        if (v != 0) {
            m.merge(key, v, Long::sum);
        }
    }

    static final String GS = "global_memory stores";
    static final String GL = "global_memory loads";
    static final String LS = "local_memory stores";
    static final String LL = "local_memory loads";
    static final String FLOP = "floating-point operations";

    /** Every kernel of the suite at test sizes (scale 1) or benchmark sizes (larger scale). */
    public static List<SuiteKernel> all(int scale) {
        return List.of(vadd(scale), reduce(scale), matmul(scale), stencil(scale), histogram(scale), scan(scale),
                knn(50 * scale, 8 * scale, 64 * scale, 16), divergent(scale));
    }

    /**
     * The suite at device-sized inputs for the benchmark: each kernel runs for roughly 0.1 to 3 ms uninstrumented
     * on the project's CPU device (PoCL), so fixed per-launch costs no longer dominate the instrumented/plain
     * ratios as they do at {@code all(4)}, where several kernels take a few microseconds.
     */
    public static List<SuiteKernel> large() {
        return List.of(vadd(512), reduce(32), matmul(4), stencil(16), histogram(16), scan(64),
                knn(5000, 784, 5120, 256), divergent(64));
    }

    static SuiteKernel vadd(int scale) {
        int n = 1000 * scale;
        int g = 1024 * scale;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("vadd", SuiteKernel.dir().resolve("vadd.cl"), "vadd",
                () -> List.of(floats(randomFloats(1, g)), floats(randomFloats(2, g)), floats(new float[g]),
                        intValue(n)),
                NdRange.of(g, 64), () -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    long active = Math.min(n, g);
                    add(m, GL, 2 * active);
                    add(m, GS, active);
                    add(m, FLOP, active);
                    add(m, "if@" + self[0].line("if (i < n)"), active);
                    return m;
                });
        return self[0];
    }

    static SuiteKernel reduce(int scale) {
        int g = 512 * scale;
        int l = 64;
        int n = g - 37;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("reduction", SuiteKernel.dir().resolve("reduce.cl"), "reduce",
                () -> List.of(floats(randomFloats(3, g)), floats(new float[g / l]), local(l * 4L), intValue(n)),
                NdRange.of(g, l), () -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    for (int gid = 0; gid < g; gid++) {
                        int lid = gid % l;
                        add(m, LS, 1);
                        if (gid < n) {
                            add(m, GL, 1);
                        }
                        for (int s = l / 2; s > 0; s >>= 1) {
                            add(m, "for@" + self[0].line("for (int s"), 1);
                            if (lid < s) {
                                add(m, "if@" + self[0].line("if (lid < s)"), 1);
                                add(m, LL, 2);
                                add(m, LS, 1);
                                add(m, FLOP, 1);
                            }
                        }
                        if (lid == 0) {
                            add(m, "if@" + self[0].line("if (lid == 0)"), 1);
                            add(m, LL, 1);
                            add(m, GS, 1);
                        }
                    }
                    return m;
                });
        return self[0];
    }

    /** The StarPU gemm tile kernel of shared/fixtures (spec test 3). */
    static SuiteKernel matmul(int scale) {
        int n = 32 * scale;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("matmul", SuiteKernel.gemm(), "gemm",
                () -> List.of(floats(randomFloats(4, n * n)), floats(randomFloats(5, n * n)),
                        floats(randomFloats(6, n * n)), intValue(n), intValue(n)),
                new NdRange(new long[] {n, n}, new long[] {16, 16}), () -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    long n3 = (long) n * n * n;
                    long n2 = (long) n * n;
                    add(m, "for@" + self[0].line("for(int k=0"), n3);
                    add(m, GL, 2 * n3 + n2);
                    add(m, GS, n2);
                    add(m, FLOP, 2 * n3 + n2);
                    return m;
                });
        return self[0];
    }

    static SuiteKernel stencil(int scale) {
        int w = 30 * scale;
        int h = 20 * scale;
        int gw = 32 * scale;
        int gh = 24 * scale;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("stencil", SuiteKernel.dir().resolve("stencil.cl"), "stencil",
                () -> List.of(floats(randomFloats(7, w * h)), floats(new float[w * h]), intValue(w), intValue(h)),
                new NdRange(new long[] {gw, gh}, new long[] {8, 8}), () -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    for (int y = 0; y < gh; y++) {
                        for (int x = 0; x < gw; x++) {
                            if (x >= w || y >= h) {
                                add(m, "if@" + self[0].line("if (x >= w"), 1);
                                continue;
                            }
                            if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
                                add(m, "if@" + self[0].line("if (x == 0"), 1);
                                add(m, GL, 1);
                                add(m, GS, 1);
                                continue;
                            }
                            add(m, GL, 5);
                            add(m, GS, 1);
                            add(m, FLOP, 5);
                        }
                    }
                    return m;
                });
        return self[0];
    }

    static SuiteKernel histogram(int scale) {
        int n = 3000 * scale;
        int nbins = 40;
        int g = 256 * scale;
        int l = 32;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("histogram", SuiteKernel.dir().resolve("histogram.cl"), "histogram",
                () -> List.of(ints(randomInts(8, n, 1000)), ints(new int[nbins]), local(nbins * 4L), intValue(n),
                        intValue(nbins)),
                NdRange.of(g, l), () -> {
                    int[] data = randomInts(8, n, 1000);
                    Map<String, Long> m = new LinkedHashMap<>();
                    int forInit = self[0].line("for (int b = lid; b < nbins; b += get_local_size(0))\n".trim());
                    int forPublish = self[0].line("for (int b = lid; b < nbins; b += get_local_size(0)) {");
                    int forData = self[0].line("for (int i = get_global_id(0)");
                    int ifNonZero = self[0].line("if (v != 0)");
                    for (int group = 0; group < g / l; group++) {
                        int[] bins = new int[nbins];
                        for (int lid = 0; lid < l; lid++) {
                            for (int b = lid; b < nbins; b += l) {
                                add(m, "for@" + forInit, 1);
                                add(m, LS, 1);
                            }
                            for (int i = group * l + lid; i < n; i += g) {
                                add(m, "for@" + forData, 1);
                                add(m, GL, 1);
                                add(m, LL, 1);
                                add(m, LS, 1);
                                bins[data[i] % nbins]++;
                            }
                        }
                        for (int lid = 0; lid < l; lid++) {
                            for (int b = lid; b < nbins; b += l) {
                                add(m, "for@" + forPublish, 1);
                                add(m, LL, 1);
                                if (bins[b] != 0) {
                                    add(m, "if@" + ifNonZero, 1);
                                    add(m, GL, 1);
                                    add(m, GS, 1);
                                }
                            }
                        }
                    }
                    return m;
                });
        return self[0];
    }

    static SuiteKernel scan(int scale) {
        int g = 256 * scale;
        int l = 64;
        int n = g - 10;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("prefix sum", SuiteKernel.dir().resolve("scan.cl"), "scan",
                () -> List.of(ints(randomInts(9, g, 100)), ints(new int[g]), local(l * 4L), intValue(n)),
                NdRange.of(g, l), () -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    for (int gid = 0; gid < g; gid++) {
                        int lid = gid % l;
                        add(m, LS, 1);
                        if (gid < n) {
                            add(m, GL, 1);
                        }
                        for (int off = 1; off < l; off *= 2) {
                            add(m, "for@" + self[0].line("for (int off"), 1);
                            if (lid >= off) {
                                add(m, LL, 1);
                            }
                            add(m, LL, 1);
                            add(m, LS, 1);
                        }
                        if (gid < n) {
                            add(m, "if@" + self[0].line("if (gid < n)"), 1);
                            add(m, LL, 1);
                            add(m, GS, 1);
                        }
                    }
                    return m;
                });
        return self[0];
    }

    /** The kNN kernel of the SPOC paper; sizes as given (spec tests 1 and 2). */
    public static SuiteKernel knn(int setSize, int dataSize, int global, int local) {
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("knn", SuiteKernel.dir().resolve("knn.cl"), "compute",
                () -> List.of(ints(randomInts(10, setSize * dataSize, 256)), ints(randomInts(11, dataSize, 256)),
                        ints(new int[global]), intValue(setSize), intValue(dataSize)),
                NdRange.of(global, local), () -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    long active = Math.min(setSize, global);
                    add(m, GS, active);
                    add(m, GL, 2L * active * dataSize);
                    add(m, "while@" + self[0].line("while (i < dataSize)"), active * dataSize);
                    add(m, "if@" + self[0].line("if (computeId < setSize)"), active);
                    add(m, "else@" + self[0].line("} else {"), global - active);
                    return m;
                });
        return self[0];
    }

    static SuiteKernel divergent(int scale) {
        int g = 256 * scale;
        int n = g - 20;
        SuiteKernel[] self = new SuiteKernel[1];
        self[0] = new SuiteKernel("divergent", SuiteKernel.dir().resolve("divergent.cl"), "divergent",
                () -> List.of(ints(randomInts(12, g, 60)), ints(new int[g]), intValue(n)),
                NdRange.of(g, 32), () -> {
                    int[] in = randomInts(12, g, 60);
                    SuiteKernel k = self[0];
                    Map<String, Long> m = new LinkedHashMap<>();
                    for (int i = 0; i < g; i++) {
                        if (i >= n) {
                            add(m, "if@" + k.line("if (i >= n)"), 1);
                            continue;
                        }
                        int v = in[i];
                        add(m, GL, 1);
                        switch (v % 4) {
                            case 0 -> add(m, "case@" + k.line("case 0:"), 1);
                            case 1 -> {
                                add(m, "case@" + k.line("case 1:"), 1);
                                for (int j = 0; j < v % 7; j++) {
                                    add(m, "for@" + k.line("for (int k = 0"), 1);
                                }
                            }
                            case 2 -> {
                                add(m, "case@" + k.line("case 2:"), 1);
                                do {
                                    add(m, "do@" + k.line("do {"), 1);
                                    add(m, "function@" + k.line("inline int weight"), 1);
                                    if (v > 20) {
                                        add(m, "if@" + k.line("if (v > 20)"), 1);
                                    }
                                    v /= 2;
                                } while (v > 5);
                            }
                            default -> add(m, "default@" + k.line("default:"), 1);
                        }
                        if (i % 2 == 0 && v > 10) {
                            add(m, "if@" + k.line("if (i % 2 == 0"), 1);
                        } else {
                            add(m, "else@" + k.line("} else if (v < 0)"), 1);
                            if (v < 0) {
                                add(m, "if@" + k.line("} else if (v < 0)"), 1);
                            }
                        }
                        add(m, GS, 1);
                    }
                    return m;
                });
        return self[0];
    }
}
