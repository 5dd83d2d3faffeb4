package org.hetscope.formats.paje;

/**
 * A state interval on a container, from a set/push and the following set/pop of the same (container, type).
 *
 * @param depth stack depth at the push (0 for the bottom state)
 * @param extras values of the definition's extra fields ({@link EventDefinition#extraNames()}), or null when it
 *               has none
 * @param line the line of the set/push that opened it
 * @param closedByEnd whether no set/pop closed it and it was closed by container destruction or trace end
 */
public record PajeState(PajeContainer container, PajeType type, long start, long end, PajeValue value, int depth,
                        EventDefinition definition, String[] extras, long line, boolean closedByEnd) {}
