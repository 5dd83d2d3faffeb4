package org.hetscope.formats.paje;

/** The state operations of one (container, state type), kept compact until the replay at the end of the file. */
final class StateBuffer {
    static final byte SET = 0;
    static final byte PUSH = 1;
    static final byte POP = 2;
    static final byte RESET = 3;

    long[] time = new long[16];
    long[] line = new long[16];
    byte[] op = new byte[16];
    PajeValue[] value = new PajeValue[16];
    EventDefinition[] def;
    String[][] extras;
    int n;
    private boolean sorted = true;

    void add(long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        if (n == time.length) {
            int cap = n * 2;
            time = java.util.Arrays.copyOf(time, cap);
            line = java.util.Arrays.copyOf(line, cap);
            op = java.util.Arrays.copyOf(op, cap);
            value = java.util.Arrays.copyOf(value, cap);
            if (def != null) {
                def = java.util.Arrays.copyOf(def, cap);
                extras = java.util.Arrays.copyOf(extras, cap);
            }
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        if (x != null && def == null) {
            def = new EventDefinition[time.length];
            extras = new String[time.length][];
        }
        time[n] = t;
        line[n] = lineNo;
        op[n] = o;
        value[n] = v;
        if (def != null) {
            def[n] = d;
            extras[n] = x;
        }
        n++;
    }

    int[] order() {
        return TimeOrder.of(time, n, sorted);
    }
}
