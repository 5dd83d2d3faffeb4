package org.hetscope.analysis.mining.sequences;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.junit.jupiter.api.Test;

class SequencesTest {
    @Test
    void example362SequencesOfAddresses() {
        String a0 = "0x0100000a0", a4 = "0x000000a4", a8 = "0x000000a8", ac = "0x000000ac", b0 = "0x100000b0";
        SequenceDatabase db = SequenceDatabase.of(List.of(List.of(a0, a4, a8, ac), List.of(a0, a8, ac, b0),
                List.of(a0, a8, ac, b0)));
        Map<List<String>, Integer> found = new HashMap<>();
        PrefixSpan.mine(db, MinSupport.atLeast(2), 10).forEach(p -> found.put(p.events(), p.support()));
        assertEquals(3, found.get(List.of(a8, ac)));
        assertEquals(2, found.get(List.of(a0, a8, ac, b0)));
        assertEquals(2, found.get(List.of(ac, b0)));
        // The longest pattern is the one the thesis lists first; nothing longer exists.
        assertEquals(4, found.keySet().stream().mapToInt(List::size).max().orElse(0));
        assertEquals(found, brute(db, 2, 10));
    }

    /** Every distinct subsequence of every sequence, counted once per sequence. */
    private static Map<List<String>, Integer> brute(SequenceDatabase db, int min, int maxLength) {
        Map<List<String>, Integer> counts = new HashMap<>();
        for (int i = 0; i < db.size(); i++) {
            List<String> s = db.names(i);
            Set<List<String>> subs = new HashSet<>();
            for (long mask = 1; mask < (1L << s.size()); mask++) {
                if (Long.bitCount(mask) > maxLength) {
                    continue;
                }
                List<String> sub = new ArrayList<>();
                for (int k = 0; k < s.size(); k++) {
                    if ((mask & (1L << k)) != 0) {
                        sub.add(s.get(k));
                    }
                }
                subs.add(sub);
            }
            subs.forEach(x -> counts.merge(x, 1, Integer::sum));
        }
        counts.values().removeIf(c -> c < min);
        return counts;
    }

    @Test
    void randomSequencesMatchBruteForce() {
        Random rnd = new Random(99);
        for (int round = 0; round < 300; round++) {
            List<List<String>> seqs = new ArrayList<>();
            int n = rnd.nextInt(8);
            int alphabet = 1 + rnd.nextInt(5);
            for (int i = 0; i < n; i++) {
                List<String> s = new ArrayList<>();
                int len = rnd.nextInt(10);
                for (int k = 0; k < len; k++) {
                    s.add(String.valueOf((char) ('a' + rnd.nextInt(alphabet))));
                }
                seqs.add(s);
            }
            SequenceDatabase db = SequenceDatabase.of(seqs);
            int min = 1 + rnd.nextInt(3);
            int maxLength = 1 + rnd.nextInt(6);
            Map<List<String>, Integer> found = new HashMap<>();
            for (SequentialPattern p : PrefixSpan.mine(db, MinSupport.atLeast(min), maxLength)) {
                assertTrue(found.put(p.events(), p.support()) == null, "twice: " + p);
                int recount = 0;
                for (int i = 0; i < db.size(); i++) {
                    recount += db.contains(i, p.events()) ? 1 : 0;
                }
                assertEquals(recount, p.support(), "recount " + p);
            }
            assertEquals(brute(db, min, maxLength), found, "round " + round + " " + seqs);
        }
    }

    @Test
    void example364PeriodicFrames() {
        TransactionDatabase db = TransactionDatabase.of(List.of(
                List.of("getFrame", "displayFrame"), List.of("int16", "swint16"),
                List.of("getFrame", "displayFrame"), List.of("write16", "cpu_clock"), List.of("read16"),
                List.of("getFrame", "displayFrame", "printk"), List.of("sum_up", "sem_down"),
                List.of("getFrame", "displayFrame")));
        List<String> found = PeriodicPatterns.mine(db, 2, 2, 2).stream().map(PeriodicPattern::toString).toList();
        assertEquals(List.of(
                "{displayFrame, getFrame} from t1 period 2 length 2",
                "{displayFrame, getFrame} from t6 period 2 length 2",
                "{displayFrame} from t1 period 2 length 2", "{displayFrame} from t6 period 2 length 2",
                "{getFrame} from t1 period 2 length 2", "{getFrame} from t6 period 2 length 2"), found);
        // Period 3 joins t3 and t6; period 5 gives t1-t6 and t3-t8; t5 breaks the period-2 run.
        assertTrue(PeriodicPatterns.mine(db, 3, 3, 2).stream().anyMatch(p -> p.start() == 3 && p.length() == 2
                && p.items().size() == 2));
        assertEquals(List.of(), PeriodicPatterns.mine(db, 2, 2, 3));
    }
}
