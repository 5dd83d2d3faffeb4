package org.hetscope.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The tracks of one read, made on first use by domain key: the one place every reader builds its track tree
 * (process -> thread -> API family, device -> stream or queue, counters under a process, a device or the root, a
 * runtime's containers). A track is found by (parent, kind, key), the key being whatever names it in the source (a
 * pid, a tid, a stream number, an API family, a container; null is a key too); asking again for the same triple
 * returns the same track, so each is made, given an id by the sink ({@link TraceSink#newId(Entity) newId(TRACK)})
 * and written as a {@link Track} record exactly once. What a track is called, how it sorts among its siblings and
 * which process, thread or device records go with it stay the reader's (its format's naming).
 *
 * <p>A new track starts with its parent's process, thread and device (an API track belongs to its thread, a
 * stream to its device) and sort index 0; the reader's {@code init} sets its name and changes the rest. {@code init}
 * runs before the track takes its id, so tracks it makes on the way (the process a stream belongs to) take theirs
 * first, and ids come out in the order the reader first needed each track. A track held from its {@code init}
 * takes its id only when asked for it or written.
 *
 * <p>A track is written when made, after its parent. A reader whose names come later than the first use (Chrome's
 * metadata events, anywhere in the file; an OpenCL device described after its first queue) either holds a track
 * ({@link Node#hold()}, then {@link Node#emit()}) or makes a tree whose tracks all wait ({@link #deferred}) and
 * calls {@link #emit()} at the end; a track waiting for its parent is written right after it. Until a track is
 * written its fields may change; after, they may not.
 */
public final class TrackTree {
    private static final int KINDS = TrackKind.values().length;

    /** One track of the tree. Setters return the node, for {@code init}'s chains. */
    public static final class Node {
        private final TrackTree tree;
        private final Node parent;
        private final TrackKind kind;
        private long id = -1;
        private String name;
        private Long processId;
        private Long threadId;
        private Long deviceId;
        private Long stream;
        private int sortIndex;
        private String unit;
        private boolean made;
        private boolean held;
        private boolean written;
        /** Children per kind by key, made on first use. */
        private Map<Object, Node>[] children;

        private Node(TrackTree tree, Node parent, TrackKind kind) {
            this.tree = tree;
            this.parent = parent;
            this.kind = kind;
            if (parent != null) {
                processId = parent.processId;
                threadId = parent.threadId;
                deviceId = parent.deviceId;
            }
        }

        /** The track id (a held track takes it now, if it has none yet); not known inside {@code init}. */
        public long id() {
            if (!made) {
                throw new IllegalStateException("a track has no id before its init is done");
            }
            if (id < 0) {
                tree.assign(this);
            }
            return id;
        }

        public Node parent() {
            return parent;
        }

        public TrackKind kind() {
            return kind;
        }

        public String name() {
            return name;
        }

        public Long processId() {
            return processId;
        }

        public Long threadId() {
            return threadId;
        }

        public Long deviceId() {
            return deviceId;
        }

        public int sortIndex() {
            return sortIndex;
        }

        private Node change() {
            if (written) {
                throw new IllegalStateException("track " + id + " (" + name + ") is written already");
            }
            return this;
        }

        public Node name(String name) {
            change().name = name;
            return this;
        }

        public Node process(Long processId) {
            change().processId = processId;
            return this;
        }

        public Node thread(Long threadId) {
            change().threadId = threadId;
            return this;
        }

        public Node device(Long deviceId) {
            change().deviceId = deviceId;
            return this;
        }

        /** The GPU stream or queue number ({@link Track#stream()}). */
        public Node stream(Long stream) {
            change().stream = stream;
            return this;
        }

        public Node sortIndex(int sortIndex) {
            change().sortIndex = sortIndex;
            return this;
        }

        public Node unit(String unit) {
            change().unit = unit;
            return this;
        }

        /**
         * Keeps this track (and the tracks under it) from being written until {@link #emit()}. Called in
         * {@code init}, it also puts off the track's id until {@link #id()} or {@link #emit()}: tracks made under
         * it meanwhile take theirs first.
         */
        public Node hold() {
            change().held = true;
            return this;
        }

        /**
         * Writes this held track now, or once its parent is written, and what waited for it; nothing if it is
         * written already. In a {@link #deferred} tree, tracks are written at {@link TrackTree#emit()} only.
         */
        public void emit() {
            if (!written) {
                held = false;
                tree.flush();
            }
        }

        /** The child of this track of {@code kind} named {@code key}, made with {@code init} if new. */
        public Node child(TrackKind kind, Object key, Consumer<Node> init) {
            return tree.track(this, kind, key, init);
        }

        /** How many children of {@code kind} this track has. */
        public int children(TrackKind kind) {
            Map<Object, Node> m = children == null ? null : children[kind.ordinal()];
            return m == null ? 0 : m.size();
        }
    }

    private final TraceSink sink;
    private final boolean deferred;
    private final Node root = new Node(this, null, null);
    private final Map<Long, Node> byId = new HashMap<>();
    private final int[] counts = new int[KINDS];
    /** Made and not written yet, in the order they were made (so parents come before their children). */
    private final List<Node> waiting = new ArrayList<>();

    /** A tree that writes each track when it is made (or when a held track is emitted). */
    public TrackTree(TraceSink sink) {
        this(sink, false);
    }

    private TrackTree(TraceSink sink, boolean deferred) {
        this.sink = sink;
        this.deferred = deferred;
    }

    /** A tree that gives ids when tracks are made and writes them all at {@link #emit()}. */
    public static TrackTree deferred(TraceSink sink) {
        return new TrackTree(sink, true);
    }

    /**
     * The track of {@code kind} named {@code key} under {@code parent} (null: a root track), made if new: then
     * {@code init} fills it in (once), the sink gives it its id and it is written unless held.
     */
    public Node track(Node parent, TrackKind kind, Object key, Consumer<Node> init) {
        Node p = parent == null ? root : parent;
        Node n = find(parent, kind, key);
        if (n != null) {
            return n;
        }
        n = new Node(this, parent, kind);
        init.accept(n);
        n.made = true;
        if (deferred || !n.held) {
            assign(n);
        }
        if (p.children == null) {
            @SuppressWarnings("unchecked")
            Map<Object, Node>[] byKind = new Map[KINDS];
            p.children = byKind;
        }
        if (p.children[kind.ordinal()] == null) {
            p.children[kind.ordinal()] = new HashMap<>();
        }
        p.children[kind.ordinal()].put(key, n);
        counts[kind.ordinal()]++;
        if (!deferred && !n.held && (parent == null || parent.written)) {
            write(n);
        } else {
            waiting.add(n);
        }
        return n;
    }

    /** A root track of {@code kind} named {@code key}, made with {@code init} if new. */
    public Node root(TrackKind kind, Object key, Consumer<Node> init) {
        return track(null, kind, key, init);
    }

    /** The track of {@code kind} named {@code key} under {@code parent} (null: the roots), or null if not made. */
    public Node find(Node parent, TrackKind kind, Object key) {
        Node p = parent == null ? root : parent;
        Map<Object, Node> siblings = p.children == null ? null : p.children[kind.ordinal()];
        return siblings == null ? null : siblings.get(key);
    }

    /** The track with id {@code id}, or null: for readers that keep track ids rather than nodes. */
    public Node node(long id) {
        return byId.get(id);
    }

    /** How many tracks of {@code kind} this tree has made (inside {@code init}: before the one being made). */
    public int count(TrackKind kind) {
        return counts[kind.ordinal()];
    }

    /** Writes every track not written yet, held ones included, parents first. */
    public void emit() {
        for (Node n : waiting) {
            n.held = false;
        }
        List<Node> all = new ArrayList<>(waiting);
        waiting.clear();
        all.forEach(this::write);
    }

    /**
     * Writes the waiting tracks that are no longer held and whose parent is written, in the order made: one pass,
     * since a parent was made (so waits) before its children.
     */
    private void flush() {
        if (deferred) {
            return;
        }
        List<Node> still = new ArrayList<>();
        for (Node n : waiting) {
            if (!n.held && (n.parent == null || n.parent.written)) {
                write(n);
            } else {
                still.add(n);
            }
        }
        waiting.clear();
        waiting.addAll(still);
    }

    private void assign(Node n) {
        n.id = sink.newId(Entity.TRACK);
        byId.put(n.id, n);
    }

    private void write(Node n) {
        if (n.id < 0) {
            assign(n);
        }
        n.written = true;
        sink.track(new Track(n.id, n.parent == null ? null : n.parent.id, n.kind, n.name, n.processId, n.threadId,
                n.deviceId, n.stream, n.sortIndex, n.unit));
    }
}
