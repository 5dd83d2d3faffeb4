package org.hetscope.formats.paje;

/** The set/add/sub operations of one (container, variable type), replayed in time order at the end. */
final class VariableBuffer {
    static final byte SET = 0;
    static final byte ADD = 1;
    static final byte SUB = 2;

    long[] time = new long[16];
    long[] line = new long[16];
    byte[] op = new byte[16];
    double[] value = new double[16];
    int n;
    private boolean sorted = true;

    void add(long t, long lineNo, byte o, double v) {
        if (n == time.length) {
            int cap = n * 2;
            time = java.util.Arrays.copyOf(time, cap);
            line = java.util.Arrays.copyOf(line, cap);
            op = java.util.Arrays.copyOf(op, cap);
            value = java.util.Arrays.copyOf(value, cap);
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        time[n] = t;
        line[n] = lineNo;
        op[n] = o;
        value[n] = v;
        n++;
    }

    int[] order() {
        return TimeOrder.of(time, n, sorted);
    }
}
