package org.hetscope.formats.ctf.meta;

import java.util.Map;

/**
 * An event class: its numeric id within its stream class, its name, and the types of its specific context and
 * payload (either may be null). {@code attributes} keeps the other metadata keys (loglevel, model.emf.uri).
 */
public record EventClass(long id, String name, long streamId, FieldType context, FieldType payload,
                         Map<String, String> attributes) {}
