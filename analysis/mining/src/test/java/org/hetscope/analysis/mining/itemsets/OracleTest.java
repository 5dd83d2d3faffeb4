package org.hetscope.analysis.mining.itemsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Property tests on random small databases against brute force: every subset of the vocabulary is counted
 * directly; the frequent ones must be exactly what Eclat and Apriori report, and the closed ones (the distinct
 * closures, closure(X) = intersection of the transactions holding X) exactly what LCM reports.
 */
class OracleTest {
    private record Db(List<Set<String>> transactions, List<String> vocabulary) {}

    private static Db random(Random rnd) {
        int items = 1 + rnd.nextInt(9);
        int n = rnd.nextInt(14);
        double density = 0.15 + rnd.nextDouble() * 0.7;
        List<String> vocabulary = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            vocabulary.add("i" + i);
        }
        List<Set<String>> ts = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            Set<String> tr = new TreeSet<>();
            for (String v : vocabulary) {
                if (rnd.nextDouble() < density) {
                    tr.add(v);
                }
            }
            ts.add(tr);
        }
        return new Db(ts, vocabulary);
    }

    private static int count(List<Set<String>> ts, Set<String> x) {
        int c = 0;
        for (Set<String> t : ts) {
            if (t.containsAll(x)) {
                c++;
            }
        }
        return c;
    }

    /** Brute force: map from every frequent non-empty subset (sorted list) to its support. */
    private static Map<List<String>, Integer> bruteFrequent(Db db, int min) {
        Map<List<String>, Integer> out = new HashMap<>();
        int k = db.vocabulary.size();
        for (int mask = 1; mask < (1 << k); mask++) {
            Set<String> x = new TreeSet<>();
            for (int i = 0; i < k; i++) {
                if ((mask & (1 << i)) != 0) {
                    x.add(db.vocabulary.get(i));
                }
            }
            int c = count(db.transactions, x);
            if (c >= min) {
                out.put(new ArrayList<>(x), c);
            }
        }
        return out;
    }

    private static Map<List<String>, Integer> bruteClosed(Db db, Map<List<String>, Integer> frequent) {
        Map<List<String>, Integer> out = new HashMap<>();
        for (Map.Entry<List<String>, Integer> e : frequent.entrySet()) {
            Set<String> closure = null;
            for (Set<String> t : db.transactions) {
                if (t.containsAll(e.getKey())) {
                    if (closure == null) {
                        closure = new TreeSet<>(t);
                    } else {
                        closure.retainAll(t);
                    }
                }
            }
            out.put(new ArrayList<>(closure), e.getValue());
        }
        // The closure of the empty set is closed too when it is not empty.
        if (!db.transactions.isEmpty()) {
            Set<String> all = new TreeSet<>(db.transactions.get(0));
            db.transactions.forEach(all::retainAll);
            int n = db.transactions.size();
            if (!all.isEmpty() && frequent.containsKey(new ArrayList<>(all))) {
                out.put(new ArrayList<>(all), n);
            }
        }
        return out;
    }

    private static Map<List<String>, Integer> asMap(List<Itemset> sets) {
        Map<List<String>, Integer> m = new HashMap<>();
        for (Itemset s : sets) {
            assertTrue(m.put(s.items(), s.support()) == null, "reported twice: " + s);
        }
        return m;
    }

    @Test
    void randomDatabasesMatchBruteForce() {
        Random rnd = new Random(20260422L);
        for (int round = 0; round < 400; round++) {
            Db db = random(rnd);
            TransactionDatabase tdb = TransactionDatabase.of(db.transactions);
            int min = 1 + rnd.nextInt(4);
            MinSupport ms = MinSupport.atLeast(min);
            Map<List<String>, Integer> frequent = bruteFrequent(db, min);
            Map<List<String>, Integer> closed = bruteClosed(db, frequent);
            String where = "round " + round + " min " + min + " db " + db.transactions;

            List<Itemset> eclat = ItemsetMiner.frequent(tdb, ms);
            assertEquals(frequent, asMap(eclat), "Eclat, " + where);
            assertEquals(frequent, asMap(ItemsetMiner.mine(tdb, ItemsetMiner.Kind.FREQUENT, ms,
                    ItemsetMiner.Algorithm.APRIORI)), "Apriori, " + where);
            List<Itemset> lcm = ItemsetMiner.closed(tdb, ms);
            assertEquals(closed, asMap(lcm), "LCM, " + where);
            assertEquals(closed, asMap(ItemsetMiner.mine(tdb, ItemsetMiner.Kind.CLOSED, ms,
                    ItemsetMiner.Algorithm.APRIORI)), "Apriori closed, " + where);
            for (Itemset s : lcm) {
                assertEquals(count(db.transactions, new HashSet<>(s.items())), s.support(), "recount " + s);
                assertTrue(s.support() >= min);
            }
            for (int i = 1; i < lcm.size(); i++) {
                assertTrue(Itemset.REPORT_ORDER.compare(lcm.get(i - 1), lcm.get(i)) < 0, "report order");
            }
        }
    }

    @Test
    void largerRandomDatabaseAgreesWithApriori() {
        Random rnd = new Random(7);
        List<List<String>> ts = new ArrayList<>();
        for (int t = 0; t < 600; t++) {
            List<String> tr = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                if (rnd.nextDouble() < 0.8 / (1 + i * 0.15)) {
                    tr.add("x" + i);
                }
            }
            ts.add(tr);
        }
        TransactionDatabase db = TransactionDatabase.of(ts);
        for (String p : List.of("5%", "10%", "25%")) {
            MinSupport ms = MinSupport.parse(p);
            assertEquals(asMap(ItemsetMiner.mine(db, ItemsetMiner.Kind.FREQUENT, ms, ItemsetMiner.Algorithm.APRIORI)),
                    asMap(ItemsetMiner.frequent(db, ms)), p);
            List<Itemset> closed = ItemsetMiner.closed(db, ms);
            assertEquals(asMap(ItemsetMiner.mine(db, ItemsetMiner.Kind.CLOSED, ms, ItemsetMiner.Algorithm.APRIORI)),
                    asMap(closed), p);
            for (Itemset s : closed) {
                assertEquals(db.support(s.items()), s.support());
            }
        }
    }
}
