package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The track tree against a brute-force replay: random get-or-create requests over paths of (kind, key), the expected
 * ids being the order in which each path was first asked for (parents before children), with one record per path.
 */
class TrackTreeTest {
    private static final TrackKind[] KINDS = {TrackKind.PROCESS, TrackKind.THREAD, TrackKind.API, TrackKind.DEVICE,
        TrackKind.STREAM, TrackKind.COUNTER};

    /** A sink whose track ids are not 1, 2, 3...: the tree must take whatever the sink gives. */
    private static final class SparseIds extends CollectingSink {
        final List<Long> given = new ArrayList<>();
        long next = 1000;

        @Override
        public long newId(Entity entity) {
            if (entity != Entity.TRACK) {
                return super.newId(entity);
            }
            next += 7;
            given.add(next);
            return next;
        }
    }

    private record Step(TrackKind kind, Object key) {}

    private static List<List<Step>> requests(long seed, int n) {
        Random r = new Random(seed);
        List<List<Step>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int depth = 1 + r.nextInt(3);
            List<Step> path = new ArrayList<>();
            for (int d = 0; d < depth; d++) {
                TrackKind kind = KINDS[r.nextInt(KINDS.length)];
                // keys of several types that could be confused (Long 3 and "3" and Integer 3 are three keys)
                Object key = switch (r.nextInt(3)) {
                    case 0 -> (long) r.nextInt(4);
                    case 1 -> Integer.toString(r.nextInt(4));
                    default -> r.nextInt(4);
                };
                path.add(new Step(kind, key));
            }
            out.add(path);
        }
        return out;
    }

    private static String name(List<Step> path) {
        return path.toString();
    }

    /** Asks for every prefix of each path, parents first, and checks ids, records and parents by brute force. */
    private static void replay(long seed, boolean deferred, boolean holdSome) {
        SparseIds sink = new SparseIds();
        TrackTree tree = deferred ? TrackTree.deferred(sink) : new TrackTree(sink);
        Map<List<Step>, Integer> firstSeen = new LinkedHashMap<>();
        Map<List<Step>, TrackTree.Node> nodes = new HashMap<>();
        List<TrackTree.Node> held = new ArrayList<>();
        Random r = new Random(seed ^ 77);
        for (List<Step> path : requests(seed, 400)) {
            TrackTree.Node parent = null;
            for (int d = 1; d <= path.size(); d++) {
                List<Step> prefix = List.copyOf(path.subList(0, d));
                firstSeen.putIfAbsent(prefix, firstSeen.size());
                Step s = prefix.get(d - 1);
                boolean hold = holdSome && r.nextInt(5) == 0;
                TrackTree.Node n = tree.track(parent, s.kind(), s.key(), x -> {
                    x.name(name(prefix)).sortIndex(prefix.size());
                    if (hold) {
                        x.hold();
                    }
                });
                if (nodes.containsKey(prefix)) {
                    assertSame(nodes.get(prefix), n, "asked again for " + prefix);
                } else {
                    nodes.put(prefix, n);
                    if (hold) {
                        held.add(n);
                        n.id(); // a held track takes its id when asked: here, in first-request order
                    }
                }
                parent = n;
            }
            if (!held.isEmpty() && r.nextInt(4) == 0) {
                held.remove(r.nextInt(held.size())).emit();
            }
        }
        tree.emit();
        // ids: the sink's, in the order each path was first asked for
        for (Map.Entry<List<Step>, Integer> e : firstSeen.entrySet()) {
            assertEquals(sink.given.get(e.getValue()), nodes.get(e.getKey()).id(), "id of " + e.getKey());
        }
        // one record per path, each after its parent's, naming its parent's id
        assertEquals(firstSeen.size(), sink.tracks.size());
        Map<Long, Track> byId = new HashMap<>();
        Set<Long> written = new HashSet<>();
        for (Track t : sink.tracks) {
            assertNull(byId.put(t.id(), t), "track " + t.id() + " written twice");
            assertTrue(t.parentId() == null || written.contains(t.parentId()), t + " written before its parent");
            written.add(t.id());
        }
        for (Map.Entry<List<Step>, TrackTree.Node> e : nodes.entrySet()) {
            List<Step> path = e.getKey();
            Track t = byId.get(e.getValue().id());
            assertEquals(name(path), t.name());
            assertEquals(path.get(path.size() - 1).kind(), t.kind());
            assertEquals(path.size(), t.sortIndex());
            Long parent = path.size() == 1 ? null : nodes.get(path.subList(0, path.size() - 1)).id();
            assertEquals(parent, t.parentId(), "parent of " + path);
            assertSame(e.getValue(), tree.node(t.id()));
        }
        // counts per kind, by brute force over the paths
        for (TrackKind k : KINDS) {
            long expected = firstSeen.keySet().stream().filter(p -> p.get(p.size() - 1).kind() == k).count();
            assertEquals(expected, tree.count(k), "count of " + k);
        }
    }

    @Test
    void getOrCreateMatchesBruteForce() {
        for (long seed = 1; seed <= 20; seed++) {
            replay(seed, false, false);
        }
    }

    @Test
    void deferredTreeMatchesBruteForce() {
        for (long seed = 1; seed <= 20; seed++) {
            replay(seed, true, false);
        }
    }

    @Test
    void heldTracksMatchBruteForce() {
        for (long seed = 1; seed <= 20; seed++) {
            replay(seed, false, true);
        }
    }

    @Test
    void immediateTreeWritesEachTrackWhenMade() {
        CollectingSink sink = new CollectingSink();
        TrackTree tree = new TrackTree(sink);
        TrackTree.Node p = tree.root(TrackKind.PROCESS, 7L, n -> n.name("p").process(3L));
        assertEquals(1, sink.tracks.size());
        TrackTree.Node t = p.child(TrackKind.THREAD, 8L, n -> n.name("t").thread(4L));
        TrackTree.Node a = t.child(TrackKind.API, "CUDA", n -> n.name("CUDA"));
        assertEquals(3, sink.tracks.size());
        // an API track belongs to its thread and process unless init says otherwise
        assertEquals(new Track(a.id(), t.id(), TrackKind.API, "CUDA", 3L, 4L, null, null, 0, null),
                sink.tracks.get(2));
        assertEquals(1, t.children(TrackKind.API));
        assertEquals(0, t.children(TrackKind.COUNTER));
        assertThrows(IllegalStateException.class, () -> a.name("renamed"), "a written track is final");
        assertSame(a, tree.find(t, TrackKind.API, "CUDA"));
        assertNull(tree.find(t, TrackKind.COUNTER, "CUDA"), "the kind is part of the key");
    }

    @Test
    void initMakesTheTracksItNeedsFirst() {
        CollectingSink sink = new CollectingSink();
        TrackTree tree = new TrackTree(sink);
        TrackTree.Node dev = tree.root(TrackKind.DEVICE, 0L, n -> n.name("GPU 0").device(9L));
        // a stream names its process, made on the way: the process takes the earlier id
        TrackTree.Node[] proc = new TrackTree.Node[1];
        TrackTree.Node s = dev.child(TrackKind.STREAM, 5L, n -> {
            proc[0] = tree.root(TrackKind.PROCESS, 1L, x -> x.name("proc").process(2L));
            n.name("stream 5").stream(5L).process(proc[0].processId());
            assertThrows(IllegalStateException.class, n::id);
        });
        assertTrue(proc[0].id() < s.id());
        assertEquals(new Track(s.id(), dev.id(), TrackKind.STREAM, "stream 5", 2L, null, 9L, 5L, 0, null),
                sink.tracks.get(2));
    }

    @Test
    void aTrackHeldFromItsInitTakesItsIdWhenAskedOrWritten() {
        CollectingSink sink = new CollectingSink();
        TrackTree tree = new TrackTree(sink);
        TrackTree.Node dev = tree.root(TrackKind.DEVICE, 1L, n -> n.name("GPU").hold());
        TrackTree.Node s1 = dev.child(TrackKind.STREAM, 1L, n -> n.name("stream 1"));
        assertEquals(1, s1.id(), "the stream, needed first, takes the first id");
        dev.emit();
        assertEquals(2, dev.id());
        TrackTree.Node s2 = dev.child(TrackKind.STREAM, 2L, n -> n.name("stream 2"));
        assertEquals(3, s2.id());
        assertEquals(List.of(2L, 1L, 3L), sink.tracks.stream().map(Track::id).toList(), "parents written first");
        assertEquals(2L, sink.tracks.get(1).parentId());
    }

    @Test
    void aHeldTrackHoldsItsChildrenUntilEmitted() {
        CollectingSink sink = new CollectingSink();
        TrackTree tree = new TrackTree(sink);
        TrackTree.Node dev = tree.root(TrackKind.DEVICE, "d", n -> n.name("?").hold());
        TrackTree.Node q = dev.child(TrackKind.QUEUE, 1L, n -> n.name("queue 1"));
        assertTrue(sink.tracks.isEmpty());
        dev.name("GPU").sortIndex(2);
        dev.emit();
        assertEquals(List.of(dev.id(), q.id()), sink.tracks.stream().map(Track::id).toList());
        assertEquals("GPU", sink.tracks.get(0).name());
        dev.emit();
        tree.emit();
        assertEquals(2, sink.tracks.size(), "emit writes nothing twice");
    }
}
