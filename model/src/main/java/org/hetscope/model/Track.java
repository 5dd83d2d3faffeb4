package org.hetscope.model;

/**
 * A timeline that slices, instants or counter samples sit on. Tracks form a tree through {@code parentId}.
 *
 * @param stream the GPU stream or queue number for {@link TrackKind#STREAM}/{@link TrackKind#QUEUE} tracks
 * @param unit for counter tracks, the unit of the values (bytes, percent, ...); otherwise null
 */
public record Track(long id, Long parentId, TrackKind kind, String name, Long processId, Long threadId,
                    Long deviceId, Long stream, int sortIndex, String unit) {

    public static Track of(long id, Long parentId, TrackKind kind, String name) {
        return new Track(id, parentId, kind, name, null, null, null, null, 0, null);
    }
}
