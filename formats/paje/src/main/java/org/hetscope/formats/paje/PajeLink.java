package org.hetscope.formats.paje;

/**
 * A link between two containers, from a {@code PajeStartLink} and the {@code PajeEndLink} with the same type and
 * key.
 */
public record PajeLink(PajeType type, PajeContainer container, PajeContainer startContainer,
                       PajeContainer endContainer, long start, long end, String value, String key,
                       long startLine, long endLine) {}
