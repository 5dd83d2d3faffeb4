package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.List;

/** A container instance ({@code PajeCreateContainer}) in the container tree, with its life time. */
public final class PajeContainer {
    private final String alias;
    private final String name;
    private final PajeType type;
    private final PajeContainer parent;
    private final long created;
    /** Position among the containers of its trace, in creation order (for the reader's per-block buffers). */
    final int index;
    /** Set by the thread that replays the file's lines in order; the block decoders never read it. */
    private long destroyed = Long.MIN_VALUE;
    private final List<PajeContainer> children = new ArrayList<>();
    /** Per-type buffers of the reader, indexed by {@link PajeType#slot}. */
    Object[] buffers = new Object[0];
    /** Free slot for a consumer (e.g. the track id it mapped this container to). */
    public long userId = -1;

    PajeContainer(int index, String alias, String name, PajeType type, PajeContainer parent, long created) {
        this.index = index;
        this.alias = alias;
        this.name = name;
        this.type = type;
        this.parent = parent;
        this.created = created;
        if (parent != null) {
            parent.children.add(this);
        }
    }

    public String alias() {
        return alias;
    }

    public String name() {
        return name;
    }

    public PajeType type() {
        return type;
    }

    /** The parent container, or null for a container created under the root {@code 0}. */
    public PajeContainer parent() {
        return parent;
    }

    public List<PajeContainer> children() {
        return children;
    }

    public long created() {
        return created;
    }

    /** Destruction time, or {@link Long#MIN_VALUE} while alive. */
    public long destroyed() {
        return destroyed;
    }

    public boolean isDestroyed() {
        return destroyed != Long.MIN_VALUE;
    }

    void destroy(long time) {
        destroyed = time;
    }

    @Override
    public String toString() {
        return alias + " (" + name + ")";
    }
}
