package org.hetscope.capture.kernels.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.cfg.Cfg;

/**
 * What the paths of one launch say: per block how often it ran and on how many work-items (hot blocks), per
 * work-item its path length and path class (work-items with identical paths share a class), and per
 * work-group how many distinct paths its work-items took and on how many blocks they diverged (a block
 * diverges in a group when its work-items ran it different numbers of times).
 *
 * @param groupOf work-group of each producer (linear global id)
 */
public record PathStatistics(long[] executions, long[] workItems, long[] divergentGroups, int[] pathClass,
                             int[] pathLength, int classes, List<Group> groups) {
    /** One work-group's divergence. */
    public record Group(long group, int workItems, int distinctPaths, int divergentBlocks, int minLength,
                        int maxLength) {}

    private record Key(int[] path) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(path, k.path);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(path);
        }
    }

    /** Paths may contain null for producers that could not be rebuilt; they are left out. */
    public static PathStatistics of(Cfg cfg, int[][] paths, long[] groupOf) {
        int nb = cfg.blocks().size();
        long[] exec = new long[nb];
        long[] items = new long[nb];
        long[] divergent = new long[nb];
        int[] cls = new int[paths.length];
        int[] len = new int[paths.length];
        Map<Key, Integer> classes = new HashMap<>();
        Map<Long, List<Integer>> byGroup = new java.util.TreeMap<>();
        for (int p = 0; p < paths.length; p++) {
            if (paths[p] == null) {
                cls[p] = -1;
                len[p] = -1;
                continue;
            }
            len[p] = paths[p].length;
            cls[p] = classes.computeIfAbsent(new Key(paths[p]), k -> classes.size());
            boolean[] seen = new boolean[nb];
            for (int b : paths[p]) {
                exec[b]++;
                if (!seen[b]) {
                    seen[b] = true;
                    items[b]++;
                }
            }
            byGroup.computeIfAbsent(groupOf[p], g -> new ArrayList<>()).add(p);
        }
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<Long, List<Integer>> e : byGroup.entrySet()) {
            List<Integer> members = e.getValue();
            long[] lo = new long[nb];
            long[] hi = new long[nb];
            Arrays.fill(lo, Long.MAX_VALUE);
            java.util.Set<Integer> distinct = new java.util.HashSet<>();
            int minLen = Integer.MAX_VALUE;
            int maxLen = 0;
            for (int p : members) {
                long[] count = new long[nb];
                for (int b : paths[p]) {
                    count[b]++;
                }
                for (int b = 0; b < nb; b++) {
                    lo[b] = Math.min(lo[b], count[b]);
                    hi[b] = Math.max(hi[b], count[b]);
                }
                distinct.add(cls[p]);
                minLen = Math.min(minLen, len[p]);
                maxLen = Math.max(maxLen, len[p]);
            }
            int div = 0;
            for (int b = 0; b < nb; b++) {
                if (lo[b] != hi[b]) {
                    div++;
                    divergent[b]++;
                }
            }
            groups.add(new Group(e.getKey(), members.size(), distinct.size(), div, minLen, maxLen));
        }
        return new PathStatistics(exec, items, divergent, cls, len, classes.size(), List.copyOf(groups));
    }
}
