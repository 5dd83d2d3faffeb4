package org.hetscope.formats.paje;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Eight bytes of the input read as one long, the first byte in the lowest: for code that looks at 8 bytes at once. */
final class ByteWords {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private ByteWords() {
    }

    /** {@code buf[off .. off + 8)}; the caller makes sure the 8 bytes are there. */
    static long at(byte[] buf, int off) {
        return (long) LONGS.get(buf, off);
    }
}
