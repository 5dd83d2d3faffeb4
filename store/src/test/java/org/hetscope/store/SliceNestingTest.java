package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's nesting pass against a brute-force reading of its definition, on random crowded tracks. */
class SliceNestingTest {
    @TempDir
    Path dir;

    private record S(long id, long track, long ts, long dur) {
        long end() {
            return ts + dur;
        }
    }

    private record Nesting(int depth, Long parent) {}

    /** The definition, checked pair by pair (quadratic): who is open at each start, and the ASOF parent. */
    private static Map<Long, Nesting> bruteForce(List<S> track) {
        List<S> order = new ArrayList<>(track);
        order.sort(Comparator.comparingLong(S::ts).thenComparing(Comparator.comparingLong(S::dur).reversed())
                .thenComparingLong(S::id));
        Map<Long, Integer> depth = new HashMap<>();
        for (int k = 0; k < order.size(); k++) {
            S c = order.get(k);
            int open = 0;
            for (int j = 0; j < k; j++) {
                S o = order.get(j);
                if (o.end() > c.ts() || (o.end() == c.ts() && o.dur() == 0)) {
                    open++;
                }
            }
            depth.put(c.id(), open);
        }
        Map<Long, Nesting> result = new HashMap<>();
        for (S c : order) {
            int d = depth.get(c.id());
            Long parent = null;
            if (d > 0) {
                long bestTs = Long.MIN_VALUE;
                int ties = 0;
                for (S p : order) {
                    if (depth.get(p.id()) == d - 1 && p.ts() <= c.ts()) {
                        if (p.ts() > bestTs) {
                            bestTs = p.ts();
                            parent = p.id();
                            ties = 1;
                        } else if (p.ts() == bestTs) {
                            ties++;
                        }
                    }
                }
                assertEquals(1, ties, "the parent of " + c + " is not unique");
            }
            result.put(c.id(), new Nesting(d, parent));
        }
        return result;
    }

    private static final Comparator<S> START_ORDER = Comparator.comparingLong(S::ts)
            .thenComparing(Comparator.comparingLong(S::dur).reversed()).thenComparingLong(S::id);

    @Test
    void depthAndParentFollowTheDefinitionOnCrowdedTracks() throws Exception {
        Random random = new Random(42);
        Path file = dir.resolve("n.duckdb");
        StoreWriter w = StoreWriter.create(file);
        List<List<S>> tracks = new ArrayList<>();
        for (int t = 0; t < 40; t++) {
            long track = w.newId(Entity.TRACK);
            w.track(Track.of(track, null, TrackKind.THREAD, "t" + t));
            List<S> slices = new ArrayList<>();
            int n = 1 + random.nextInt(120);
            int span = 1 + random.nextInt(200);
            for (int i = 0; i < n; i++) {
                long ts = random.nextInt(span);
                long dur = switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> random.nextInt(3);
                    default -> random.nextInt(span);
                };
                S s = new S(w.newId(Entity.SLICE), track, ts, dur);
                slices.add(s);
            }
            // Emitted in start order (nested as they arrive), in random order as readers of unsorted formats do
            // (nested at commit), in start order up to a point and then not (rows nested on arrival are redone at
            // commit), or with one depth given by the reader among missing ones (the whole track at commit).
            List<S> emitted = new ArrayList<>(slices);
            int mode = t % 4;
            if (mode == 1) {
                java.util.Collections.shuffle(emitted, random);
            } else {
                emitted.sort(START_ORDER);
                if (mode == 2 && n > 2) {
                    java.util.Collections.shuffle(emitted.subList(n / 2, n), random);
                }
            }
            for (int i = 0; i < n; i++) {
                S s = emitted.get(i);
                int depth = mode == 3 && i == n / 2 ? 7 : -1;
                w.slice(new Slice(s.id(), track, s.ts(), s.dur(), "s", Category.CPU_OP, null, depth, null, null));
            }
            tracks.add(slices);
        }
        org.junit.jupiter.api.Assertions.assertTrue(w.tracksNestedAtCommit() < 40,
                "tracks emitted in start order are nested on arrival");
        org.junit.jupiter.api.Assertions.assertTrue(w.tracksNestedAtCommit() >= 10,
                "tracks emitted out of order are nested at commit");
        w.commit();

        try (Store store = Store.open(file)) {
            Map<Long, Nesting> stored = new HashMap<>();
            for (Object[] row : store.query("nesting", "select id, depth, parent_id from slice").rows()) {
                stored.put(((Number) row[0]).longValue(), new Nesting(((Number) row[1]).intValue(),
                        row[2] == null ? null : ((Number) row[2]).longValue()));
            }
            int checked = 0;
            for (List<S> track : tracks) {
                for (Map.Entry<Long, Nesting> e : bruteForce(track).entrySet()) {
                    assertEquals(e.getValue(), stored.get(e.getKey()), "slice " + e.getKey());
                    checked++;
                }
            }
            assertEquals(stored.size(), checked);
            assertTrue(stored.values().stream().anyMatch(n -> n.depth() >= 3), "the random tracks nest deeply");
        }
    }

    @Test
    void aSliceRunningPastTheEndOfTimeDoesNotOverflow() {
        SliceNesting.Sweep sweep = new SliceNesting.Sweep();
        sweep.start(1, Long.MAX_VALUE - 5, 100);
        sweep.start(2, Long.MAX_VALUE - 1, 0);
        assertEquals(1, sweep.depth);
        assertEquals(1L, sweep.parent);
    }
}
