package org.hetscope.formats.paje;

import java.util.function.IntFunction;

/**
 * Body operations whose states and variables wait in per-(container, type) buffers for the replay at the end of the
 * trace, counted as they come toward the reader's spill budget. The reader's own (in file order) and a block's
 * ({@link BlockLog}) differ only in where the buffers are kept.
 */
abstract class BufferingOperations implements BodyOperations {
    /** Operations buffered, and their estimated heap. */
    long ops;
    long bytes;

    /** The buffer of (c, type), made by {@code make} (given a capacity) when it has none. */
    abstract <B extends OperationBuffer<B>> B buffer(PajeContainer c, PajeType type, IntFunction<B> make);

    @Override
    public final void state(PajeContainer c, PajeType type, long time, long line, byte op, PajeValue value,
                            EventDefinition def, String[] extras) {
        buffer(c, type, StateBuffer::new).add(time, line, op, value, def, extras);
        ops++;
        bytes += StateBuffer.bytes(extras);
    }

    @Override
    public final void variable(PajeContainer c, PajeType type, long time, long line, byte op, double value) {
        buffer(c, type, VariableBuffer::new).add(time, line, op, value);
        ops++;
        bytes += VariableBuffer.BYTES;
    }
}
