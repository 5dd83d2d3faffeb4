package org.hetscope.capture.kernels.lang;

import java.util.List;

/** Evaluates the integer constant expressions of {@code #if} lines (C precedence, 64-bit arithmetic). */
final class ConstantExpression {
    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"}};
    private final List<Token> toks;
    private int i;

    ConstantExpression(List<Token> toks) {
        this.toks = toks;
    }

    long parse() {
        long v = conditional();
        if (i < toks.size()) {
            throw new KernelSourceException(toks.get(i).pos(), "unexpected '" + toks.get(i).text() + "' in #if");
        }
        return v;
    }

    private Token peek() {
        return i < toks.size() ? toks.get(i) : null;
    }

    private boolean accept(String s) {
        Token t = peek();
        if (t != null && t.is(s)) {
            i++;
            return true;
        }
        return false;
    }

    private long conditional() {
        long c = binary(0);
        if (accept("?")) {
            long a = conditional();
            if (!accept(":")) {
                throw error("expected ':' in #if");
            }
            long b = conditional();
            return c != 0 ? a : b;
        }
        return c;
    }

    private long binary(int level) {
        if (level == LEVELS.length) {
            return unary();
        }
        long v = binary(level + 1);
        outer:
        while (true) {
            for (String op : LEVELS[level]) {
                if (accept(op)) {
                    long r = binary(level + 1);
                    v = switch (op) {
                        case "||" -> v != 0 || r != 0 ? 1 : 0;
                        case "&&" -> v != 0 && r != 0 ? 1 : 0;
                        case "|" -> v | r;
                        case "^" -> v ^ r;
                        case "&" -> v & r;
                        case "==" -> v == r ? 1 : 0;
                        case "!=" -> v != r ? 1 : 0;
                        case "<" -> v < r ? 1 : 0;
                        case ">" -> v > r ? 1 : 0;
                        case "<=" -> v <= r ? 1 : 0;
                        case ">=" -> v >= r ? 1 : 0;
                        case "<<" -> v << r;
                        case ">>" -> v >> r;
                        case "+" -> v + r;
                        case "-" -> v - r;
                        case "*" -> v * r;
                        default -> {
                            if (r == 0) {
                                throw error("division by zero in #if");
                            }
                            yield op.equals("/") ? v / r : v % r;
                        }
                    };
                    continue outer;
                }
            }
            return v;
        }
    }

    private long unary() {
        if (accept("!")) {
            return unary() == 0 ? 1 : 0;
        }
        if (accept("-")) {
            return -unary();
        }
        if (accept("+")) {
            return unary();
        }
        if (accept("~")) {
            return ~unary();
        }
        if (accept("(")) {
            long v = conditional();
            if (!accept(")")) {
                throw error("expected ')' in #if");
            }
            return v;
        }
        Token t = peek();
        if (t == null || t.kind() != Token.Kind.NUMBER && t.kind() != Token.Kind.CHAR) {
            throw error("expected a number in #if");
        }
        i++;
        if (t.kind() == Token.Kind.CHAR) {
            return t.text().charAt(1);
        }
        return Literals.integer(t);
    }

    private KernelSourceException error(String msg) {
        Token t = peek() != null ? peek() : toks.getLast();
        return new KernelSourceException(t.pos(), msg);
    }
}
