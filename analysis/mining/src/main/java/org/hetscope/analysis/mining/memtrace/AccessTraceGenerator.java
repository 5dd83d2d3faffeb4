package org.hetscope.analysis.mining.memtrace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Generates multi-core memory-access traces with planted contention, so the miners can be shown to find what was
 * planted and nothing else. Every core repeats: background work in one of {@link #WORK_FUNCTIONS} functions picked at
 * random (short latencies, private data, a few misses); a burst in {@code bank_read}/{@code bank_write} hammering
 * one memory bank (one 4 KiB page, node {@link #BANK_NODE}) whose latency grows with the core count; a barrier spun
 * on in {@code cpu_mp_wait} (the PCs of the thesis' Fig. A.1) until the slowest core arrives and the serialised
 * counter update of every core is done, so its share grows with the core count; and stores to shared data in {@code barrier_release} after the barrier, also slowed by the
 * core count. Deterministic for a given seed.
 */
public final class AccessTraceGenerator {
    public static final int WORK_FUNCTIONS = 32;
    public static final int BANK_NODE = 5;
    public static final long SPIN_START = 0x10008250L;
    /** The four PCs of the spin loop (sync; lw; bnez; nop). */
    public static final long[] SPIN_PCS = {0x1000825cL, 0x10008260L, 0x10008264L, 0x10008268L};
    static final long WORK_BASE = 0x10010000L;
    static final long WORK_SIZE = 0x100L;
    static final long BANK_READ = 0x10002000L;
    static final long BANK_WRITE = 0x10002100L;
    static final long RELEASE = 0x10003000L;
    static final long BANK_DATA = 0x20040000L;
    static final long FLAG = 0x20080000L;
    static final long SHARED = 0x200c0000L;

    /** Size and shape of a generated trace. */
    public record Config(int cores, int iterations, long seed) {
        public Config {
            if (cores < 1 || iterations < 1) {
                throw new IllegalArgumentException("need at least one core and one iteration");
            }
        }
    }

    private AccessTraceGenerator() {}

    /** The symbol table of the generated program (what {@code nm -n -S} would print for it). */
    public static SymbolTable symbols() {
        List<long[]> ranges = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int f = 0; f < WORK_FUNCTIONS; f++) {
            ranges.add(new long[] {WORK_BASE + f * WORK_SIZE, WORK_SIZE});
            names.add(workName(f));
        }
        ranges.add(new long[] {BANK_READ, 0x100});
        names.add("bank_read");
        ranges.add(new long[] {BANK_WRITE, 0x100});
        names.add("bank_write");
        ranges.add(new long[] {SPIN_START, 0x24});
        names.add("cpu_mp_wait");
        ranges.add(new long[] {RELEASE, 0x100});
        names.add("barrier_release");
        return SymbolTable.of(ranges, names);
    }

    static String workName(int f) {
        return String.format("work_%02d", f);
    }

    /** The execution trace: all cores' events merged by (time, cpu). */
    public static List<AccessEvent> generate(Config c) {
        Random rnd = new Random(c.seed());
        SymbolTable sym = symbols();
        List<AccessEvent> out = new ArrayList<>();
        long[] clock = new long[c.cores()];
        long barrier = 0;
        for (int it = 0; it < c.iterations(); it++) {
            for (int cpu = 0; cpu < c.cores(); cpu++) {
                clock[cpu] = barrier;
                int f = rnd.nextInt(WORK_FUNCTIONS);
                long base = WORK_BASE + f * WORK_SIZE;
                int work = 30 + rnd.nextInt(30);
                for (int k = 0; k < work; k++) {
                    long pc = base + 4L * (k % (WORK_SIZE / 4));
                    boolean load = k % 3 == 2;
                    long lat = rnd.nextInt(20) == 0 ? 10 + rnd.nextInt(8) : 1 + rnd.nextInt(3);
                    long data = load ? 0x30000000L + cpu * 0x10000L + 8L * rnd.nextInt(256) : pc;
                    clock[cpu] = emit(out, sym, cpu, clock[cpu], pc, load ? AccessType.READ : AccessType.INST, data,
                            lat, load ? cpu : 0);
                }
                for (int k = 0; k < 8; k++) {
                    boolean write = k % 2 == 1;
                    long pc = (write ? BANK_WRITE : BANK_READ) + 4L * (k / 2);
                    long lat = 40 + 4L * c.cores() + rnd.nextInt(10);
                    clock[cpu] = emit(out, sym, cpu, clock[cpu], pc, write ? AccessType.WRITE : AccessType.READ,
                            BANK_DATA + 64L * rnd.nextInt(64), lat, BANK_NODE);
                }
            }
            long arrive = 0;
            for (long t : clock) {
                arrive = Math.max(arrive, t);
            }
            // The barrier counter is updated by one core at a time, so the release comes later with more cores.
            arrive += 12L * c.cores();
            long release = arrive;
            for (int cpu = 0; cpu < c.cores(); cpu++) {
                // Spin until the slowest core arrives; at least one check of the flag.
                do {
                    for (long pc : SPIN_PCS) {
                        boolean load = pc == SPIN_PCS[1];
                        clock[cpu] = emit(out, sym, cpu, clock[cpu], pc, load ? AccessType.READ : AccessType.INST,
                                load ? FLAG : pc, load ? 2 : 1, 0);
                    }
                } while (clock[cpu] < arrive);
                release = Math.max(release, clock[cpu]);
            }
            for (int cpu = 0; cpu < c.cores(); cpu++) {
                clock[cpu] = release;
                for (int k = 0; k < 4; k++) {
                    long lat = 15 + 3L * c.cores() + rnd.nextInt(10);
                    clock[cpu] = emit(out, sym, cpu, clock[cpu], RELEASE + 4L * k, AccessType.WRITE,
                            SHARED + 64L * (cpu * 4 + k), lat, 0);
                }
            }
            barrier = 0;
            for (long t : clock) {
                barrier = Math.max(barrier, t);
            }
        }
        out.sort(Comparator.comparingLong(AccessEvent::t).thenComparingInt(AccessEvent::cpu));
        return out;
    }

    private static long emit(List<AccessEvent> out, SymbolTable sym, int cpu, long t, long pc, AccessType type,
                             long data, long latency, int node) {
        out.add(new AccessEvent(cpu, t, pc, type, data, data >>> 12, null, node, latency, sym.function(pc)));
        return t + latency;
    }

    /** Writes events in the symbolised layout of Table A.1 (cpu cycle pc type address latency function). */
    public static void writeTrace(Path file, List<AccessEvent> events) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            w.write("# cpu cycle pc type address latency function (hetscope generator, Table A.1 layout)\n");
            for (AccessEvent e : events) {
                w.write(e.cpu() + " " + e.t() + " 0x" + Long.toHexString(e.pc()) + " " + typeName(e.type()) + " 0x"
                        + Long.toHexString(e.dataAddress()) + " " + e.latency() + " " + e.function() + "\n");
            }
        }
    }

    private static String typeName(AccessType t) {
        return switch (t) {
            case INST -> "fetch";
            case READ -> "load";
            case WRITE -> "store";
            case LL -> "ll";
            case SC -> "sc";
        };
    }

    /** Writes the program's symbols as {@code nm -n -S} prints them. */
    public static void writeSymbols(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        List<long[]> all = new ArrayList<>();
        for (int f = 0; f < WORK_FUNCTIONS; f++) {
            all.add(new long[] {WORK_BASE + f * WORK_SIZE, WORK_SIZE, f});
        }
        all.add(new long[] {BANK_READ, 0x100, -1});
        all.add(new long[] {BANK_WRITE, 0x100, -2});
        all.add(new long[] {SPIN_START, 0x24, -3});
        all.add(new long[] {RELEASE, 0x100, -4});
        all.sort(Comparator.comparingLong(a -> a[0]));
        for (long[] a : all) {
            String name = a[2] >= 0 ? workName((int) a[2]) : switch ((int) a[2]) {
                case -1 -> "bank_read";
                case -2 -> "bank_write";
                case -3 -> "cpu_mp_wait";
                default -> "barrier_release";
            };
            lines.add(String.format("%08x %08x T %s", a[0], a[1], name));
        }
        Files.write(file, lines);
    }
}
