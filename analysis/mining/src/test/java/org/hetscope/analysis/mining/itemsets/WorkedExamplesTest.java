package org.hetscope.analysis.mining.itemsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The itemset examples of trace-mining.md section 3, exactly. */
class WorkedExamplesTest {
    private static List<String> lines(List<Itemset> sets) {
        return sets.stream().map(Itemset::toString).toList();
    }

    @Test
    void table41GivesSevenFrequentAndTwoClosed() {
        TransactionDatabase db = TransactionDatabase.of(List.of(List.of("A", "B", "C"), List.of("A", "C"),
                List.of("A", "B", "C")));
        assertEquals(List.of("A C (3)", "A (3)", "C (3)", "A B C (2)", "A B (2)", "B C (2)", "B (2)"),
                lines(ItemsetMiner.frequent(db, MinSupport.atLeast(2))));
        assertEquals(List.of("A C (3)", "A B C (2)"), lines(ItemsetMiner.closed(db, MinSupport.atLeast(2))));
        assertEquals(lines(ItemsetMiner.closed(db, MinSupport.atLeast(2))),
                lines(ItemsetMiner.mine(db, ItemsetMiner.Kind.CLOSED, MinSupport.atLeast(2),
                        ItemsetMiner.Algorithm.APRIORI)));
    }

    @Test
    void example361AddressesGiveFifteenFrequentAndTwoClosed() {
        String a0 = "0x0100000a0", a4 = "0x000000a4", a8 = "0x000000a8", ac = "0x000000ac", b0 = "0x100000b0";
        TransactionDatabase db = TransactionDatabase.of(List.of(List.of(a0, a4, a8, ac), List.of(a0, a8, ac, b0),
                List.of(a0, a8, ac, b0)));
        List<Itemset> frequent = ItemsetMiner.frequent(db, MinSupport.atLeast(2));
        assertEquals(15, frequent.size());
        // The 15 sets of the spec, each with its support (items in lexicographic order: a8 < ac < a0 < b0).
        List<String> expected = List.of(
                "0x000000a8 0x000000ac 0x0100000a0 (3)",
                "0x000000a8 0x000000ac (3)", "0x000000a8 0x0100000a0 (3)", "0x000000ac 0x0100000a0 (3)",
                "0x000000a8 (3)", "0x000000ac (3)", "0x0100000a0 (3)",
                "0x000000a8 0x000000ac 0x0100000a0 0x100000b0 (2)",
                "0x000000a8 0x000000ac 0x100000b0 (2)", "0x000000a8 0x0100000a0 0x100000b0 (2)",
                "0x000000ac 0x0100000a0 0x100000b0 (2)",
                "0x000000a8 0x100000b0 (2)", "0x000000ac 0x100000b0 (2)", "0x0100000a0 0x100000b0 (2)",
                "0x100000b0 (2)");
        assertEquals(expected, lines(frequent));
        assertEquals(List.of("0x000000a8 0x000000ac 0x0100000a0 (3)",
                        "0x000000a8 0x000000ac 0x0100000a0 0x100000b0 (2)"),
                lines(ItemsetMiner.closed(db, MinSupport.atLeast(2))));
    }

    @Test
    void percentagesRoundUpAndThresholdsAreInclusive() {
        assertEquals(2, MinSupport.parse("50%").count(3));   // ceil(1.5)
        assertEquals(65, MinSupport.parse("65%").count(100));
        assertEquals(1, MinSupport.parse("0.1%").count(10));  // ceil(0.01)
        assertEquals(3, MinSupport.parse("3").count(1000));
        assertEquals(7, MinSupport.parse("60%").count(11));   // ceil(6.6)
        assertEquals(1, MinSupport.parse("0").count(5));
        assertThrows(IllegalArgumentException.class, () -> MinSupport.parse("1.5"));
        assertThrows(IllegalArgumentException.class, () -> MinSupport.parse("101%"));
        assertThrows(IllegalArgumentException.class, () -> MinSupport.parse("x"));
        TransactionDatabase db = TransactionDatabase.of(List.of(List.of("A", "B", "C"), List.of("A", "C"),
                List.of("A", "B", "C")));
        // 66.7% of 3 is 2.001 -> 3: only the support-3 sets pass; 66.6% -> 1.998 -> 2: the support-2 ones too.
        assertEquals(List.of("A C (3)"), lines(ItemsetMiner.closed(db, MinSupport.parse("66.7%"))));
        assertEquals(2, ItemsetMiner.closed(db, MinSupport.parse("66.6%")).size());
    }
}
