package org.hetscope.capture.kernels.lang;

/**
 * A lexical token of OpenCL C with the place it came from. Tokens produced by macro expansion carry the
 * position of the macro invocation, so results map back to the user's source lines.
 *
 * @param lineStart whether the token is the first one on its source line (directives start there)
 * @param spaceBefore whether white space preceded it (needed for function-like macro definitions)
 */
public record Token(Kind kind, String text, SourcePos pos, boolean lineStart, boolean spaceBefore) {
    /** Token classes. {@code PRAGMA} is a whole {@code #pragma} line kept for the compiler. */
    public enum Kind { IDENT, NUMBER, CHAR, STRING, PUNCT, PRAGMA, EOF }

    public boolean is(String s) {
        return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(s);
    }

    public Token at(SourcePos p) {
        return new Token(kind, text, p, lineStart, spaceBefore);
    }

    public Token spaced(boolean space) {
        return new Token(kind, text, pos, lineStart, space);
    }

    @Override
    public String toString() {
        return text;
    }
}
