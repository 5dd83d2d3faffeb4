package org.hetscope.formats.paje;

import org.hetscope.model.SkipReason;

/**
 * What the body lines of a Paje file say, once decoded: the {@link LineDecoder} hands each line's operation here.
 * The reader applies them at once when it decodes in file order; a block decoded on another thread keeps them
 * ({@link BlockLog}) until the reader applies them in file order.
 */
interface BodyOperations {
    void event(PajeEvent event);

    void state(PajeContainer c, PajeType type, long time, long line, byte op, PajeValue value, EventDefinition def,
               String[] extras);

    void variable(PajeContainer c, PajeType type, long time, long line, byte op, double value);

    /** One end of a link; {@code other} is the start container of a start, the end container of an end. */
    void link(PajeType type, String key, boolean start, long time, PajeContainer c, PajeContainer other,
              String value, long line);

    void destroy(PajeContainer c, long time, long line);

    /** A problem with a line: {@code what} becomes the skip detail, {@code detail} goes with the location. */
    void problem(SkipReason reason, String what, long line, String detail);
}
