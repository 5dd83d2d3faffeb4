package org.hetscope.analysis.mining.sequences;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hetscope.analysis.mining.itemsets.MinSupport;

/**
 * Frequent sequential patterns by PrefixSpan (Pei et al.) with pseudo-projection: a pattern's projected database is
 * the list of (sequence, position just after the pattern's earliest match); one scan of it counts every possible
 * next event once per sequence and, in the same pass, builds each extension's projection. A pattern's support is
 * the number of sequences holding it as a subsequence (gaps allowed).
 */
public final class PrefixSpan {
    private final SequenceDatabase db;
    private final int minCount;
    private final int maxLength;
    private final List<SequentialPattern> out = new ArrayList<>();
    private final int[] prefix;
    private final int[] seen;
    private final int[][] countsByDepth;
    private final int[][] slotByDepth;
    private int stamp;

    private PrefixSpan(SequenceDatabase db, int minCount, int maxLength) {
        this.db = db;
        this.minCount = minCount;
        this.maxLength = maxLength;
        this.prefix = new int[Math.max(1, maxLength)];
        this.seen = new int[db.dictionary().size()];
        this.countsByDepth = new int[Math.max(1, maxLength) + 1][];
        this.slotByDepth = new int[Math.max(1, maxLength) + 1][];
    }

    /** Every pattern of at most {@code maxLength} events whose support reaches {@code min}, in report order. */
    public static List<SequentialPattern> mine(SequenceDatabase db, MinSupport min, int maxLength) {
        PrefixSpan p = new PrefixSpan(db, min.count(db.size()), maxLength);
        int n = db.size();
        int[] seqs = new int[n];
        int[] pos = new int[n];
        for (int i = 0; i < n; i++) {
            seqs[i] = i;
        }
        p.grow(0, seqs, pos, n);
        p.out.sort(SequentialPattern.REPORT_ORDER);
        return p.out;
    }

    private void grow(int length, int[] seqs, int[] pos, int n) {
        if (length >= maxLength) {
            return;
        }
        int items = seen.length;
        if (countsByDepth[length] == null) {
            countsByDepth[length] = new int[items];
            slotByDepth[length] = new int[items];
            Arrays.fill(slotByDepth[length], -1);
        }
        int[] counts = countsByDepth[length];
        int[] slot = slotByDepth[length];
        List<Integer> touched = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            stamp++;
            int[] s = db.sequence(seqs[k]);
            for (int j = pos[k]; j < s.length; j++) {
                int x = s[j];
                if (seen[x] != stamp) {
                    seen[x] = stamp;
                    if (counts[x]++ == 0) {
                        touched.add(x);
                    }
                }
            }
        }
        List<Integer> frequent = new ArrayList<>();
        List<Integer> supports = new ArrayList<>();
        for (int x : touched) {
            if (counts[x] >= minCount) {
                slot[x] = frequent.size();
                frequent.add(x);
                supports.add(counts[x]);
            }
            counts[x] = 0;
        }
        if (frequent.isEmpty()) {
            return;
        }
        int f = frequent.size();
        int[][] childSeq = new int[f][];
        int[][] childPos = new int[f][];
        int[] fill = new int[f];
        for (int c = 0; c < f; c++) {
            childSeq[c] = new int[supports.get(c)];
            childPos[c] = new int[supports.get(c)];
        }
        for (int k = 0; k < n; k++) {
            stamp++;
            int[] s = db.sequence(seqs[k]);
            for (int j = pos[k]; j < s.length; j++) {
                int x = s[j];
                int c = slot[x];
                if (c >= 0 && seen[x] != stamp) {
                    seen[x] = stamp;
                    childSeq[c][fill[c]] = seqs[k];
                    childPos[c][fill[c]++] = j + 1;
                }
            }
        }
        for (int x : frequent) {
            slot[x] = -1;
        }
        for (int c = 0; c < f; c++) {
            prefix[length] = frequent.get(c);
            List<String> events = new ArrayList<>(length + 1);
            for (int i = 0; i <= length; i++) {
                events.add(db.dictionary().name(prefix[i]));
            }
            out.add(new SequentialPattern(events, fill[c]));
            grow(length + 1, childSeq[c], childPos[c], fill[c]);
        }
    }
}
