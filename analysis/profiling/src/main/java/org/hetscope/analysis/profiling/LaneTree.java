package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The system view's lane tree (spec §2.1): {@code GPU <device> -> <stream/queue>} lanes for kernels and other
 * device activity, {@code <API family> -> Thread <tid>} lanes for host calls (nested calls drawn as a call
 * stack by their depth), {@code Memory transfers -> <src -> dst>} lanes, and {@code CPUs -> CPU <n>} lanes for a
 * kernel trace's scheduler; overlapping intervals of one lane go to sub-lanes. Meant to feed a timeline front end.
 */
public final class LaneTree {
    /** One lane of the tree; {@code parent} is -1 for top-level lanes. */
    public record Lane(int id, int parent, String kind, String name, int subLanes) {}

    /** Where one slice is drawn. */
    public record Placement(long sliceId, int lane, int subLane, int depth) {}

    private final List<Lane> lanes = new ArrayList<>();
    private final List<Placement> placements = new ArrayList<>();

    public static LaneTree of(Store store) {
        LaneTree tree = new LaneTree();
        tree.build(store);
        return tree;
    }

    public List<Lane> lanes() {
        return lanes;
    }

    public List<Placement> placements() {
        return placements;
    }

    private int lane(Map<String, Integer> index, String key, int parent, String kind, String name) {
        return index.computeIfAbsent(key, k -> {
            lanes.add(new Lane(lanes.size(), parent, kind, name, 0));
            return lanes.size() - 1;
        });
    }

    private void build(Store store) {
        Map<String, Integer> index = new LinkedHashMap<>();
        Map<Integer, List<SubLanes.Interval>> members = new LinkedHashMap<>();
        String sql = "SELECT s.id, s.ts, s.dur, s.category, s.depth, t.kind, t.name, "
                + "COALESCE(t.device_id, p.device_id), d.name, d.ordinal, th.tid, s.source_category, "
                + "tr.src_device_id, tr.dst_device_id, t.id, t.parent_id, p.kind, p.name "
                + "FROM slice s JOIN track t ON t.id = s.track_id LEFT JOIN track p ON p.id = t.parent_id "
                + "LEFT JOIN device d ON d.id = COALESCE(t.device_id, p.device_id) "
                + "LEFT JOIN thread th ON th.id = COALESCE(t.thread_id, p.thread_id) "
                + "LEFT JOIN transfer tr ON tr.slice_id = s.id "
                + "ORDER BY s.ts, s.id";
        // Streamed row by row: a store of 10 M slices held as a table of boxed values needed more than 1 GB.
        try (java.sql.PreparedStatement ps = store.connection().prepareStatement(sql);
             java.sql.ResultSet rs = ps.executeQuery()) {
            Object[] r = new Object[18];
            while (rs.next()) {
                for (int c : ROW_OBJECTS) {
                    r[c] = rs.getObject(c + 1);
                }
                place(store, index, members, rs.getLong(1), rs.getLong(2), rs.getLong(3), r);
            }
        } catch (java.sql.SQLException e) {
            throw new org.hetscope.store.StoreException("cannot load slices for the lane tree: " + e.getMessage(), e);
        }
        finish(members);
    }

    /** The columns {@link #place} reads as objects (the others are read as longs). */
    private static final int[] ROW_OBJECTS = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};

    private void place(Store store, Map<String, Integer> index, Map<Integer, List<SubLanes.Interval>> members,
                       long id, long ts, long dur, Object[] r) {
        String category = (String) r[3];
        String trackKind = (String) r[5];
        String trackName = (String) r[6];
        int laneId;
        boolean device = SubLanes.subLaned(trackKind);
        if (device) {
            String dev = r[8] != null ? "GPU " + r[9] + " " + r[8] : "GPU " + r[7];
            int top = lane(index, "dev/" + r[7], -1, "device", dev);
            laneId = lane(index, "dev/" + r[7] + "/" + r[14], top, trackKind, trackName);
            if ("memcpy".equals(category)) {
                int mem = lane(index, "mem", -1, "transfers", "Memory transfers");
                String pair = label(store, r[12]) + " -> " + label(store, r[13]);
                int pairLane = lane(index, "mem/" + pair, mem, "transfer", pair);
                members.computeIfAbsent(pairLane, k -> new ArrayList<>()).add(new SubLanes.Interval(id, ts,
                        ts + dur));
            }
            members.computeIfAbsent(laneId, k -> new ArrayList<>()).add(new SubLanes.Interval(id, ts, ts + dur));
        } else if ("cpu".equals(trackKind) || "cpu".equals(r[16])) {
            // a kernel trace's scheduler lanes (one stretch at a time per CPU), each with its interrupt handlers
            // below it, drawn by their nesting depth
            int top = lane(index, "cpus", -1, "cpus", "CPUs");
            if ("cpu".equals(r[16])) {
                int cpu = lane(index, "cpu/" + r[15], top, "cpu", (String) r[17]);
                laneId = lane(index, "cpu/" + r[14], cpu, "interrupts", trackName);
                placements.add(new Placement(id, laneId, 0, r[4] == null ? 0 : ((Number) r[4]).intValue()));
            } else {
                laneId = lane(index, "cpu/" + r[14], top, "cpu", trackName);
                placements.add(new Placement(id, laneId, 0, 0));
            }
        } else {
            String api = "api".equals(trackKind) ? trackName : r[11] != null ? (String) r[11] : "Host";
            int top = lane(index, "api/" + api, -1, "api", api);
            String thread = r[10] != null ? "Thread " + r[10] : trackName;
            laneId = lane(index, "api/" + api + "/" + thread, top, "thread", thread);
            // properly nested calls are a call stack: drawn by depth, not spread over sub-lanes
            placements.add(new Placement(id, laneId, 0, r[4] == null ? 0 : ((Number) r[4]).intValue()));
        }
    }

    private void finish(Map<Integer, List<SubLanes.Interval>> members) {
        for (Map.Entry<Integer, List<SubLanes.Interval>> e : members.entrySet()) {
            int[] sub = SubLanes.assign(e.getValue());
            int max = 0;
            for (int i = 0; i < sub.length; i++) {
                placements.add(new Placement(e.getValue().get(i).id(), e.getKey(), sub[i], 0));
                max = Math.max(max, sub[i] + 1);
            }
            Lane l = lanes.get(e.getKey());
            lanes.set(e.getKey(), new Lane(l.id(), l.parent(), l.kind(), l.name(), max));
        }
        for (int i = 0; i < lanes.size(); i++) {
            Lane l = lanes.get(i);
            if (l.subLanes() == 0) {
                lanes.set(i, new Lane(l.id(), l.parent(), l.kind(), l.name(), 1));
            }
        }
    }

    private final Map<Object, String> deviceLabels = new java.util.HashMap<>();

    private String label(Store store, Object deviceId) {
        if (deviceId == null) {
            return "Host";
        }
        return deviceLabels.computeIfAbsent(deviceId, k -> {
            Table t = store.query(null, "SELECT kind, ordinal FROM device WHERE id = ?", deviceId);
            return t.size() == 0 ? "device " + deviceId : ("CPU".equals(t.rows().get(0)[0]) ? "Host"
                    : "GPU " + t.rows().get(0)[1]);
        });
    }

    public Table lanesTable() {
        Table.Builder t = Table.builder("Lanes", "lane", "parent", "kind", "name", "sub_lanes", "slices");
        Map<Integer, Long> counts = new java.util.HashMap<>();
        for (Placement p : placements) {
            counts.merge(p.lane(), 1L, Long::sum);
        }
        for (Lane l : lanes) {
            t.row((long) l.id(), l.parent() < 0 ? null : (long) l.parent(), l.kind(), l.name(), (long) l.subLanes(),
                    counts.getOrDefault(l.id(), 0L));
        }
        return t.build();
    }

    public Table placementsTable() {
        Table.Builder t = Table.builder("Lane placements", "slice_id", "lane", "sub_lane", "depth");
        for (Placement p : placements) {
            t.row(p.sliceId(), (long) p.lane(), (long) p.subLane(), (long) p.depth());
        }
        return t.build();
    }
}
