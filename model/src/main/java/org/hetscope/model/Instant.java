package org.hetscope.model;

/** A point event on a track, with the source's arguments as JSON text. */
public record Instant(long id, long trackId, long ts, String name, Category category, String sourceCategory,
                      String argsJson) {}
