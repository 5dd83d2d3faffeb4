package org.hetscope.analysis.profiling;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A derived counter (spec §1): an arithmetic expression over raw counters with {@code + - * /}, parentheses
 * and numeric literals. Names are checked against the known counters when the expression is parsed; a
 * division by zero gives NaN and a warning.
 */
public final class CounterExpression {
    private sealed interface Node permits Num, Ref, Neg, Bin {}

    private record Num(double value) implements Node {}

    private record Ref(String name) implements Node {}

    private record Neg(Node inner) implements Node {}

    private record Bin(char op, Node left, Node right) implements Node {}

    private final String name;
    private final String text;
    private final Node root;
    private final Set<String> references = new LinkedHashSet<>();
    private int pos;

    private CounterExpression(String name, String text, Collection<String> known) {
        this.name = name;
        this.text = text;
        this.root = parseSum();
        skipSpaces();
        if (pos != text.length()) {
            throw error("unexpected '" + text.charAt(pos) + "'");
        }
        for (String r : references) {
            if (!known.contains(r)) {
                throw new IllegalArgumentException("derived counter " + name + ": unknown counter '" + r
                        + "' (known: " + known + ")");
            }
        }
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} on a syntax error or an unknown counter. */
    public static CounterExpression parse(String name, String text, Collection<String> knownCounters) {
        return new CounterExpression(name, text, knownCounters);
    }

    /** Parses {@code NAME=EXPRESSION}. */
    public static CounterExpression parseDefinition(String definition, Collection<String> knownCounters) {
        int eq = definition.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("derived counter must be NAME=EXPRESSION: " + definition);
        }
        return parse(definition.substring(0, eq).trim(), definition.substring(eq + 1), knownCounters);
    }

    public String name() {
        return name;
    }

    public String text() {
        return text;
    }

    public Set<String> references() {
        return references;
    }

    /**
     * Evaluates with the given raw values; a missing value makes the result NaN. {@code warn} is told about
     * divisions by zero.
     */
    public double evaluate(Map<String, Double> values, Consumer<String> warn) {
        return eval(root, values, warn);
    }

    private double eval(Node n, Map<String, Double> v, Consumer<String> warn) {
        return switch (n) {
            case Num num -> num.value();
            case Ref ref -> v.getOrDefault(ref.name(), Double.NaN);
            case Neg neg -> -eval(neg.inner(), v, warn);
            case Bin bin -> {
                double a = eval(bin.left(), v, warn);
                double b = eval(bin.right(), v, warn);
                yield switch (bin.op()) {
                    case '+' -> a + b;
                    case '-' -> a - b;
                    case '*' -> a * b;
                    default -> {
                        if (b == 0) {
                            warn.accept("derived counter " + name + ": division by zero in '" + text.trim() + "'");
                            yield Double.NaN;
                        }
                        yield a / b;
                    }
                };
            }
        };
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("derived counter " + name + ": " + what + " at position " + pos
                + " of '" + text + "'");
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private Node parseSum() {
        Node left = parseProduct();
        while (true) {
            skipSpaces();
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                char op = text.charAt(pos++);
                left = new Bin(op, left, parseProduct());
            } else {
                return left;
            }
        }
    }

    private Node parseProduct() {
        Node left = parseUnary();
        while (true) {
            skipSpaces();
            if (pos < text.length() && (text.charAt(pos) == '*' || text.charAt(pos) == '/')) {
                char op = text.charAt(pos++);
                left = new Bin(op, left, parseUnary());
            } else {
                return left;
            }
        }
    }

    private Node parseUnary() {
        skipSpaces();
        if (pos < text.length() && text.charAt(pos) == '-') {
            pos++;
            return new Neg(parseUnary());
        }
        if (pos < text.length() && text.charAt(pos) == '+') {
            pos++;
            return parseUnary();
        }
        return parseAtom();
    }

    private Node parseAtom() {
        skipSpaces();
        if (pos >= text.length()) {
            throw error("expression ends too early");
        }
        char c = text.charAt(pos);
        if (c == '(') {
            pos++;
            Node inner = parseSum();
            skipSpaces();
            if (pos >= text.length() || text.charAt(pos) != ')') {
                throw error("missing ')'");
            }
            pos++;
            return inner;
        }
        if (Character.isDigit(c) || c == '.') {
            int start = pos;
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
                pos++;
            }
            if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
                pos++;
                if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                    pos++;
                }
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    pos++;
                }
            }
            try {
                return new Num(Double.parseDouble(text.substring(start, pos)));
            } catch (NumberFormatException e) {
                throw error("bad number '" + text.substring(start, pos) + "'");
            }
        }
        if (Character.isLetter(c) || c == '_') {
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                    || text.charAt(pos) == '.' || text.charAt(pos) == '[' || text.charAt(pos) == ']')) {
                pos++;
            }
            String ref = text.substring(start, pos);
            references.add(ref);
            return new Ref(ref);
        }
        throw error("unexpected '" + c + "'");
    }
}
