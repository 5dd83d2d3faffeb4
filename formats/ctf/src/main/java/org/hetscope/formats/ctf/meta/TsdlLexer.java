package org.hetscope.formats.ctf.meta;

import java.util.ArrayList;
import java.util.List;

/** Splits TSDL text into tokens (identifiers, numbers, strings, punctuation), dropping comments. */
final class TsdlLexer {
    enum Kind { IDENT, NUMBER, STRING, PUNCT, EOF }

    record Token(Kind kind, String text, int line) {
        boolean is(String s) {
            return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(s);
        }
    }

    private static final String[] PUNCTS = {"...", ":=", "->", "{", "}", "(", ")", "[", "]", ";", "=", ":", ",",
        ".", "<", ">", "-", "+", "*"};

    static List<Token> tokens(String s) throws MetadataException {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int line = 1;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (Character.isWhitespace(c) || c == 0) {
                i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new MetadataException("line " + line, "unterminated comment");
                }
                for (int k = i; k < end; k++) {
                    if (s.charAt(k) == '\n') {
                        line++;
                    }
                }
                i = end + 2;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_' || c == '$') {
                int st = i;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(Kind.IDENT, s.substring(st, i), line));
            } else if (Character.isDigit(c)) {
                int st = i;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)))) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, s.substring(st, i), line));
            } else if (c == '"' || c == '\'') {
                StringBuilder b = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new MetadataException("line " + line, "unterminated string");
                    }
                    char d = s.charAt(i++);
                    if (d == c) {
                        break;
                    }
                    if (d == '\\' && i < n) {
                        char e = s.charAt(i++);
                        b.append(switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case '0' -> '\0';
                            default -> e;
                        });
                    } else {
                        if (d == '\n') {
                            line++;
                        }
                        b.append(d);
                    }
                }
                out.add(new Token(Kind.STRING, b.toString(), line));
            } else {
                String p = null;
                for (String cand : PUNCTS) {
                    if (s.startsWith(cand, i)) {
                        p = cand;
                        break;
                    }
                }
                if (p == null) {
                    throw new MetadataException("line " + line, "unexpected character '" + c + "'");
                }
                out.add(new Token(Kind.PUNCT, p, line));
                i += p.length();
            }
        }
        out.add(new Token(Kind.EOF, "<end>", line));
        return out;
    }

    private TsdlLexer() {}
}
