package org.hetscope.formats.paje;

/**
 * An entity value of a state or event type ({@code PajeDefineEntityValue}), or a value that was used without being
 * declared ({@code declared == false}, name = the text).
 *
 * @param color the colour as written in the trace ({@code "0.0 .7 1.0"}), or null
 */
public record PajeValue(String alias, String name, String color, boolean declared) {}
