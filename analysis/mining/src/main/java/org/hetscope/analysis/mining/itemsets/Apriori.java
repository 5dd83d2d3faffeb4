package org.hetscope.analysis.mining.itemsets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Level-wise Apriori (Agrawal and Srikant): candidates of size k+1 are joins of frequent k-sets sharing their first
 * k-1 items whose every k-subset is frequent; supports are counted by testing each candidate against each
 * transaction. Slow and simple on purpose: it is the reference the fast miners are checked against. Closed sets
 * are the frequent sets no frequent one-item superset matches in support.
 */
public final class Apriori {
    private Apriori() {}

    public static long mine(TransactionDatabase db, int minCount, boolean closedOnly, ItemsetConsumer out) {
        int min = Math.max(1, minCount);
        Map<List<Integer>, Integer> all = new HashMap<>();
        int[] counts = db.itemCounts();
        List<int[]> level = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] >= min) {
                level.add(new int[] {i});
                all.put(List.of(i), counts[i]);
            }
        }
        while (!level.isEmpty()) {
            Set<List<Integer>> known = new HashSet<>();
            level.forEach(s -> known.add(box(s)));
            List<int[]> next = new ArrayList<>();
            for (int a = 0; a < level.size(); a++) {
                for (int b = a + 1; b < level.size(); b++) {
                    int[] x = level.get(a);
                    int[] y = level.get(b);
                    if (!Arrays.equals(x, 0, x.length - 1, y, 0, y.length - 1)) {
                        continue;
                    }
                    int[] c = Arrays.copyOf(x, x.length + 1);
                    c[x.length] = y[y.length - 1];
                    Arrays.sort(c);
                    if (allSubsetsKnown(c, known)) {
                        int support = db.support(c);
                        if (support >= min) {
                            next.add(c);
                            all.put(box(c), support);
                        }
                    }
                }
            }
            next.sort(Arrays::compare);
            level = next;
        }
        long n = 0;
        for (Map.Entry<List<Integer>, Integer> e : all.entrySet()) {
            if (closedOnly && hasEqualSuperset(e.getKey(), e.getValue(), all, counts.length)) {
                continue;
            }
            int[] items = e.getKey().stream().mapToInt(Integer::intValue).toArray();
            out.accept(items, items.length, e.getValue());
            n++;
        }
        return n;
    }

    private static boolean allSubsetsKnown(int[] c, Set<List<Integer>> known) {
        for (int skip = 0; skip < c.length; skip++) {
            List<Integer> sub = new ArrayList<>(c.length - 1);
            for (int i = 0; i < c.length; i++) {
                if (i != skip) {
                    sub.add(c[i]);
                }
            }
            if (!known.contains(sub)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasEqualSuperset(List<Integer> set, int support, Map<List<Integer>, Integer> all,
                                            int items) {
        for (int i = 0; i < items; i++) {
            if (set.contains(i)) {
                continue;
            }
            List<Integer> sup = new ArrayList<>(set);
            sup.add(i);
            sup.sort(null);
            Integer s = all.get(sup);
            if (s != null && s == support) {
                return true;
            }
        }
        return false;
    }

    private static List<Integer> box(int[] s) {
        return Arrays.stream(s).boxed().toList();
    }
}
