package org.hetscope.capture.kernels.instrument;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.lang.Token;

/**
 * Source-to-source rewriting on the preprocessed token stream: text is inserted before or after tokens, and
 * everything else is copied, so the compiler sees exactly the user's code plus the insertions. Insertions
 * carry a depth: at one place, shallower (enclosing) insertions open first and close last.
 */
public final class Rewriter {
    private record Insertion(String text, int depth, int seq) {}

    private final List<Token> tokens;
    private final Map<Integer, List<Insertion>> before = new HashMap<>();
    private final Map<Integer, List<Insertion>> after = new HashMap<>();
    private final Map<Integer, List<Insertion>> opened = new HashMap<>();
    private final StringBuilder prelude = new StringBuilder();
    private final java.util.Set<Integer> dropped = new java.util.HashSet<>();
    private int seq;

    /** Leaves a token out of the output (a {@code void} parameter list that gets a parameter). */
    public void drop(int token) {
        dropped.add(token);
    }

    public Rewriter(List<Token> tokens) {
        this.tokens = tokens;
    }

    public void before(int token, String text, int depth) {
        before.computeIfAbsent(token, k -> new ArrayList<>()).add(new Insertion(text, depth, seq++));
    }

    public void after(int token, String text, int depth) {
        after.computeIfAbsent(token, k -> new ArrayList<>()).add(new Insertion(text, depth, seq++));
    }

    /** Inserts after an opening token ({@code {} or {@code (}): at one place, shallower insertions come first. */
    public void open(int token, String text, int depth) {
        opened.computeIfAbsent(token, k -> new ArrayList<>()).add(new Insertion(text, depth, seq++));
    }

    /** Wraps tokens {@code first..last} in {@code open}...{@code close}. */
    public void wrap(int first, int last, String open, String close, int depth) {
        before(first, open, depth);
        after(last, close, depth);
    }

    /** Code placed at the top of the output (helper functions, pragmas). */
    public void prelude(String text) {
        prelude.append(text);
    }

    public String render() {
        StringBuilder out = new StringBuilder(prelude);
        int line = -1;
        String file = null;
        for (int k = 0; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.EOF) {
                break;
            }
            List<Insertion> b = before.getOrDefault(k, List.of());
            if (t.kind() == Token.Kind.PRAGMA || t.pos().line() != line || !t.pos().file().equals(file)) {
                if (!out.isEmpty()) {
                    out.append('\n');
                }
                line = t.pos().line();
                file = t.pos().file();
            } else if (t.spaceBefore() || !b.isEmpty()) {
                out.append(' ');
            } else {
                out.append(' ');
            }
            b.stream().sorted(Comparator.comparingInt(Insertion::depth).thenComparingInt(Insertion::seq))
                    .forEach(x -> out.append(x.text()));
            if (!dropped.contains(k)) {
                out.append(t.text());
            }
            opened.getOrDefault(k, List.of()).stream()
                    .sorted(Comparator.comparingInt(Insertion::depth).thenComparingInt(Insertion::seq))
                    .forEach(x -> out.append(x.text()));
            List<Insertion> a = after.getOrDefault(k, List.of());
            a.stream().sorted(Comparator.comparingInt(Insertion::depth).thenComparingInt(Insertion::seq).reversed())
                    .forEach(x -> out.append(x.text()));
            if (t.kind() == Token.Kind.PRAGMA) {
                out.append('\n');
                line = -1;
            }
        }
        out.append('\n');
        return out.toString();
    }
}
