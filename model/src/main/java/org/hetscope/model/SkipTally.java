package org.hetscope.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Counts skipped items per (reason, detail), keeping where each first occurred: what a reader gathers while it
 * decodes and hands to {@link TraceSink#skipped} at the end, and what the store writer keeps. Rows come out in
 * the order their (reason, detail) first came.
 */
public final class SkipTally {
    /** One (reason, detail) with its total and its first location. */
    public record Entry(SkipReason reason, String detail, String where, long count) {
        /** {@code reason} or {@code reason: detail}, as summaries print it. */
        public String label() {
            return detail == null ? reason.id() : reason.id() + ": " + detail;
        }
    }

    private record Key(SkipReason reason, String detail) {}

    private static final class Cell {
        long count;
        final String where;

        Cell(String where) {
            this.where = where;
        }
    }

    private final Map<Key, Cell> cells = new LinkedHashMap<>();

    /** Counts one item. */
    public void add(SkipReason reason, String detail, String where) {
        add(reason, detail, where, 1);
    }

    /** Counts {@code count} items; the first call for a (reason, detail) fixes its location. */
    public void add(SkipReason reason, String detail, String where, long count) {
        Objects.requireNonNull(reason, "reason");
        if (count <= 0) {
            return;
        }
        Key k = new Key(reason, detail == null || detail.isEmpty() ? null : detail);
        Cell c = cells.get(k);
        if (c == null) {
            c = new Cell(where);
            cells.put(k, c);
        }
        c.count += count;
    }

    /** Counts what {@code other} holds here, as if it were added now and in its order. */
    public void addAll(SkipTally other) {
        for (Map.Entry<Key, Cell> e : other.cells.entrySet()) {
            add(e.getKey().reason, e.getKey().detail, e.getValue().where, e.getValue().count);
        }
    }

    /** Hands every row to {@code sink}. */
    public void flushTo(TraceSink sink) {
        for (Map.Entry<Key, Cell> e : cells.entrySet()) {
            sink.skipped(e.getKey().reason, e.getKey().detail, e.getValue().where, e.getValue().count);
        }
    }

    public boolean isEmpty() {
        return cells.isEmpty();
    }

    /** The items counted for {@code reason}, over all details. */
    public long count(SkipReason reason) {
        long n = 0;
        for (Map.Entry<Key, Cell> e : cells.entrySet()) {
            if (e.getKey().reason == reason) {
                n += e.getValue().count;
            }
        }
        return n;
    }

    /** The items counted for ({@code reason}, {@code detail}). */
    public long count(SkipReason reason, String detail) {
        Cell c = cells.get(new Key(reason, detail == null || detail.isEmpty() ? null : detail));
        return c == null ? 0 : c.count;
    }

    /** Every item counted. */
    public long total() {
        return cells.values().stream().mapToLong(c -> c.count).sum();
    }

    /** The items of reasons of {@code severity}. */
    public long total(SkipReason.Severity severity) {
        long n = 0;
        for (Map.Entry<Key, Cell> e : cells.entrySet()) {
            if (e.getKey().reason.severity() == severity) {
                n += e.getValue().count;
            }
        }
        return n;
    }

    /** The rows, in the order they first came. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>(cells.size());
        cells.forEach((k, c) -> out.add(new Entry(k.reason, k.detail, c.where, c.count)));
        return out;
    }
}
