package org.hetscope.analysis.mining.sequences;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hetscope.analysis.mining.itemsets.ItemDictionary;

/** Ordered event sequences (one per CPU, stream, window...), events as dense item ids. */
public final class SequenceDatabase {
    private final ItemDictionary dictionary;
    private final List<int[]> sequences;

    private SequenceDatabase(ItemDictionary dictionary, List<int[]> sequences) {
        this.dictionary = dictionary;
        this.sequences = sequences;
    }

    public static SequenceDatabase of(List<? extends List<String>> sequences) {
        ItemDictionary d = new ItemDictionary();
        List<int[]> out = new ArrayList<>(sequences.size());
        for (List<String> s : sequences) {
            out.add(s.stream().mapToInt(d::id).toArray());
        }
        return new SequenceDatabase(d, out);
    }

    public ItemDictionary dictionary() {
        return dictionary;
    }

    public int size() {
        return sequences.size();
    }

    int[] sequence(int i) {
        return sequences.get(i);
    }

    public List<String> names(int i) {
        return Arrays.stream(sequences.get(i)).mapToObj(dictionary::name).toList();
    }

    /** Whether sequence {@code i} holds {@code pattern} as a (not necessarily contiguous) subsequence. */
    public boolean contains(int i, List<String> pattern) {
        int[] s = sequences.get(i);
        int p = 0;
        for (int k = 0; k < s.length && p < pattern.size(); k++) {
            if (dictionary.name(s[k]).equals(pattern.get(p))) {
                p++;
            }
        }
        return p == pattern.size();
    }
}
