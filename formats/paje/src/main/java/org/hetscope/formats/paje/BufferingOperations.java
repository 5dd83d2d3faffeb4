package org.hetscope.formats.paje;

/**
 * Body operations whose states and variables wait in per-(container, type) buffers for the replay at the end of the
 * trace, counted as they come toward the reader's spill budget. The reader's own (in file order) and a block's
 * ({@link BlockLog}) differ only in where the buffers are kept.
 */
abstract class BufferingOperations implements BodyOperations {
    /** Operations buffered, and their estimated heap. */
    long ops;
    long bytes;

    /** The state buffer of (c, type), made when it has none. */
    abstract StateBuffer states(PajeContainer c, PajeType type);

    /** The variable buffer of (c, type), made when it has none. */
    abstract VariableBuffer variables(PajeContainer c, PajeType type);

    @Override
    public final void state(PajeContainer c, PajeType type, long time, long line, byte op, PajeValue value,
                            EventDefinition def, String[] extras) {
        states(c, type).add(time, line, op, value, def, extras);
        ops++;
        bytes += StateBuffer.bytes(extras);
    }

    @Override
    public final void variable(PajeContainer c, PajeType type, long time, long line, byte op, double value) {
        variables(c, type).add(time, line, op, value);
        ops++;
        bytes += VariableBuffer.BYTES;
    }
}
