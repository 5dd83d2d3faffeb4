package org.hetscope.capture.kernels.lang;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits OpenCL C source text into tokens. Backslash-newline splices and comments are removed here; every
 * token keeps the line and column of its first character in the original text.
 */
public final class Lexer {
    private static final String[] PUNCTS = {
        "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=",
        "+=", "-=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/",
        "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#"};

    private final String file;
    private final StringBuilder text = new StringBuilder();
    private final List<int[]> where = new ArrayList<>();
    private int i;
    private String flat;

    private Lexer(String file, String source) {
        this.file = file;
        int line = 1;
        int col = 1;
        for (int k = 0; k < source.length(); k++) {
            char c = source.charAt(k);
            if (c == '\\' && k + 1 < source.length() && (source.charAt(k + 1) == '\n'
                    || source.charAt(k + 1) == '\r' && k + 2 < source.length() && source.charAt(k + 2) == '\n')) {
                k += source.charAt(k + 1) == '\r' ? 2 : 1;
                line++;
                col = 1;
                continue;
            }
            if (c == '\r') {
                continue;
            }
            text.append(c);
            where.add(new int[] {line, col});
            if (c == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        where.add(new int[] {line, col});
    }

    public static List<Token> lex(String file, String source) {
        return new Lexer(file, source).run();
    }

    private SourcePos pos(int k) {
        int[] w = where.get(Math.min(k, where.size() - 1));
        return new SourcePos(file, w[0], w[1]);
    }

    private char peek(int ahead) {
        int k = i + ahead;
        return k < text.length() ? text.charAt(k) : '\0';
    }

    private List<Token> run() {
        flat = text.toString();
        List<Token> out = new ArrayList<>();
        boolean lineStart = true;
        boolean space = false;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\n') {
                lineStart = true;
                space = true;
                i++;
                continue;
            }
            if (Character.isWhitespace(c)) {
                space = true;
                i++;
                continue;
            }
            if (c == '/' && peek(1) == '/') {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
                space = true;
                continue;
            }
            if (c == '/' && peek(1) == '*') {
                int start = i;
                i += 2;
                while (i < text.length() && !(text.charAt(i) == '*' && peek(1) == '/')) {
                    i++;
                }
                if (i >= text.length()) {
                    throw new KernelSourceException(pos(start), "unterminated comment");
                }
                i += 2;
                space = true;
                continue;
            }
            int start = i;
            Token.Kind kind;
            if (Character.isLetter(c) || c == '_') {
                while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                kind = Token.Kind.IDENT;
            } else if (Character.isDigit(c) || c == '.' && Character.isDigit(peek(1))) {
                i++;
                while (i < text.length()) {
                    char d = text.charAt(i);
                    char prev = text.charAt(i - 1);
                    if (Character.isLetterOrDigit(d) || d == '.' || d == '_'
                            || (d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')) {
                        i++;
                    } else {
                        break;
                    }
                }
                kind = Token.Kind.NUMBER;
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < text.length() && text.charAt(i) != c) {
                    if (text.charAt(i) == '\\') {
                        i++;
                    }
                    if (i < text.length() && text.charAt(i) == '\n') {
                        throw new KernelSourceException(pos(start), "unterminated " + (c == '"' ? "string" : "character")
                                + " literal");
                    }
                    i++;
                }
                if (i >= text.length()) {
                    throw new KernelSourceException(pos(start), "unterminated literal");
                }
                i++;
                kind = c == '"' ? Token.Kind.STRING : Token.Kind.CHAR;
            } else {
                String p = null;
                for (String cand : PUNCTS) {
                    if (flat.startsWith(cand, i)) {
                        p = cand;
                        break;
                    }
                }
                if (p == null) {
                    throw new KernelSourceException(pos(i), "unexpected character '" + c + "'");
                }
                i += p.length();
                kind = Token.Kind.PUNCT;
            }
            out.add(new Token(kind, text.substring(start, i), pos(start), lineStart, space));
            lineStart = false;
            space = false;
        }
        out.add(new Token(Token.Kind.EOF, "", pos(text.length()), true, true));
        return out;
    }
}
