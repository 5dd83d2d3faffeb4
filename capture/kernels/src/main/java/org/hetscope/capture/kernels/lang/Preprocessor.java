package org.hetscope.capture.kernels.lang;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The C preprocessor for OpenCL C: object- and function-like {@code #define} (with {@code #} and {@code ##}),
 * {@code #undef}, {@code #include "..."} and {@code <...>}, {@code #if/#ifdef/#ifndef/#elif/#else/#endif} with
 * {@code defined}, and {@code #error}. {@code #pragma} lines are kept as single tokens for the compiler.
 */
public final class Preprocessor {
    private record Macro(String name, List<String> params, boolean variadic, List<Token> body) {
        boolean functionLike() {
            return params != null;
        }
    }

    private record Cond(boolean active, boolean taken, boolean sawElse) {}

    private final Map<String, Macro> macros = new HashMap<>();
    private final List<Path> includeDirs;
    private final Map<String, String> virtualFiles;
    private int depth;

    /**
     * @param includeDirs where {@code #include} looks after the including file's folder
     * @param virtualFiles in-memory files by name, looked up before the file system (tests, generated headers)
     */
    public Preprocessor(List<Path> includeDirs, Map<String, String> virtualFiles) {
        this.includeDirs = includeDirs;
        this.virtualFiles = virtualFiles;
        define("__OPENCL_VERSION__", "120");
        define("__OPENCL_C_VERSION__", "120");
        define("CL_VERSION_1_0", "100");
        define("CL_VERSION_1_1", "110");
        define("CL_VERSION_1_2", "120");
        define("__HETSCOPE__", "1");
    }

    public Preprocessor() {
        this(List.of(), Map.of());
    }

    /** Defines an object-like macro, as {@code -D name=value} would. */
    public void define(String name, String value) {
        List<Token> body = new ArrayList<>(Lexer.lex("<command line>", value));
        body.removeLast();
        macros.put(name, new Macro(name, null, false, body));
    }

    public List<Token> run(String file, String source) {
        List<Token> out = new ArrayList<>();
        process(file, source, out);
        out.add(new Token(Token.Kind.EOF, "", new SourcePos(file, Integer.MAX_VALUE, 1), true, true));
        return out;
    }

    private void process(String file, String source, List<Token> out) {
        if (++depth > 64) {
            throw new KernelSourceException(new SourcePos(file, 1, 1), "#include nested too deeply");
        }
        List<Token> toks = Lexer.lex(file, source);
        Deque<Cond> conds = new ArrayDeque<>();
        List<Token> pending = new ArrayList<>();
        int i = 0;
        while (toks.get(i).kind() != Token.Kind.EOF) {
            Token t = toks.get(i);
            if (t.lineStart() && t.is("#")) {
                int end = i + 1;
                while (toks.get(end).kind() != Token.Kind.EOF && !toks.get(end).lineStart()) {
                    end++;
                }
                List<Token> line = toks.subList(i + 1, end);
                boolean active = conds.isEmpty() || conds.peek().active();
                if (!pending.isEmpty() && (active || isConditional(line))) {
                    out.addAll(expand(pending, Set.of()));
                    pending.clear();
                }
                directive(file, t, line, conds, out);
                i = end;
                continue;
            }
            if (conds.isEmpty() || conds.peek().active()) {
                pending.add(t);
            }
            i++;
        }
        if (!conds.isEmpty()) {
            throw new KernelSourceException(toks.get(i).pos(), "missing #endif");
        }
        out.addAll(expand(pending, Set.of()));
        depth--;
    }

    private static boolean isConditional(List<Token> line) {
        return !line.isEmpty() && switch (line.getFirst().text()) {
            case "if", "ifdef", "ifndef", "elif", "else", "endif" -> true;
            default -> false;
        };
    }

    private void directive(String file, Token hash, List<Token> line, Deque<Cond> conds, List<Token> out) {
        if (line.isEmpty()) {
            return;
        }
        Token name = line.getFirst();
        List<Token> rest = line.subList(1, line.size());
        boolean active = conds.isEmpty() || conds.peek().active();
        boolean parentActive = conds.isEmpty() || conds.stream().skip(1).allMatch(Cond::active);
        switch (name.text()) {
            case "if" -> {
                boolean v = active && evaluate(name, rest) != 0;
                conds.push(new Cond(v, v, false));
            }
            case "ifdef", "ifndef" -> {
                if (rest.isEmpty()) {
                    throw new KernelSourceException(name.pos(), "#" + name.text() + " without a macro name");
                }
                boolean v = active && (macros.containsKey(rest.getFirst().text()) == name.text().equals("ifdef"));
                conds.push(new Cond(v, v, false));
            }
            case "elif" -> {
                Cond c = top(conds, name);
                if (c.sawElse()) {
                    throw new KernelSourceException(name.pos(), "#elif after #else");
                }
                conds.pop();
                boolean outer = conds.isEmpty() || conds.peek().active();
                boolean v = outer && !c.taken() && evaluate(name, rest) != 0;
                conds.push(new Cond(v, c.taken() || v, false));
            }
            case "else" -> {
                Cond c = top(conds, name);
                if (c.sawElse()) {
                    throw new KernelSourceException(name.pos(), "#else after #else");
                }
                conds.pop();
                boolean outer = conds.isEmpty() || conds.peek().active();
                conds.push(new Cond(outer && !c.taken(), true, true));
            }
            case "endif" -> {
                top(conds, name);
                conds.pop();
            }
            default -> {
                if (!active) {
                    return;
                }
                switch (name.text()) {
                    case "define" -> define(name, rest);
                    case "undef" -> {
                        if (!rest.isEmpty()) {
                            macros.remove(rest.getFirst().text());
                        }
                    }
                    case "include" -> include(file, name, rest, out);
                    case "pragma" -> {
                        StringBuilder sb = new StringBuilder("#pragma");
                        for (Token t : rest) {
                            sb.append(' ').append(t.text());
                        }
                        out.add(new Token(Token.Kind.PRAGMA, sb.toString(), hash.pos(), true, true));
                    }
                    case "error" -> throw new KernelSourceException(name.pos(), "#error " + join(rest));
                    case "line", "warning" -> { }
                    default -> throw new KernelSourceException(name.pos(), "unknown directive #" + name.text());
                }
            }
        }
        if (!parentActive && conds.isEmpty()) {
            throw new IllegalStateException("unbalanced conditionals");
        }
    }

    private static Cond top(Deque<Cond> conds, Token at) {
        if (conds.isEmpty()) {
            throw new KernelSourceException(at.pos(), "#" + at.text() + " without #if");
        }
        return conds.peek();
    }

    private static String join(List<Token> toks) {
        StringBuilder sb = new StringBuilder();
        for (Token t : toks) {
            if (!sb.isEmpty() && t.spaceBefore()) {
                sb.append(' ');
            }
            sb.append(t.text());
        }
        return sb.toString();
    }

    private void define(Token at, List<Token> rest) {
        if (rest.isEmpty() || rest.getFirst().kind() != Token.Kind.IDENT) {
            throw new KernelSourceException(at.pos(), "#define needs a macro name");
        }
        String name = rest.getFirst().text();
        int k = 1;
        List<String> params = null;
        boolean variadic = false;
        if (rest.size() > 1 && rest.get(1).is("(") && !rest.get(1).spaceBefore()) {
            params = new ArrayList<>();
            k = 2;
            while (true) {
                if (k >= rest.size()) {
                    throw new KernelSourceException(at.pos(), "unterminated parameter list of macro " + name);
                }
                Token p = rest.get(k++);
                if (p.is(")")) {
                    break;
                }
                if (p.is("...")) {
                    variadic = true;
                    params.add("__VA_ARGS__");
                } else if (p.kind() == Token.Kind.IDENT) {
                    params.add(p.text());
                } else if (!p.is(",")) {
                    throw new KernelSourceException(p.pos(), "bad macro parameter '" + p.text() + "'");
                }
            }
        }
        macros.put(name, new Macro(name, params, variadic, List.copyOf(rest.subList(k, rest.size()))));
    }

    private void include(String file, Token at, List<Token> rest, List<Token> out) {
        List<Token> spec = rest;
        if (!spec.isEmpty() && spec.getFirst().kind() == Token.Kind.IDENT) {
            spec = expand(spec, Set.of());
        }
        String name;
        boolean quoted;
        if (!spec.isEmpty() && spec.getFirst().kind() == Token.Kind.STRING) {
            String s = spec.getFirst().text();
            name = s.substring(1, s.length() - 1);
            quoted = true;
        } else if (!spec.isEmpty() && spec.getFirst().is("<")) {
            StringBuilder sb = new StringBuilder();
            for (Token t : spec.subList(1, spec.size())) {
                if (t.is(">")) {
                    break;
                }
                sb.append(t.text());
            }
            name = sb.toString();
            quoted = false;
        } else {
            throw new KernelSourceException(at.pos(), "#include needs \"file\" or <file>");
        }
        if (virtualFiles.containsKey(name)) {
            process(name, virtualFiles.get(name), out);
            return;
        }
        List<Path> dirs = new ArrayList<>();
        if (quoted) {
            Path parent = Path.of(file).toAbsolutePath().getParent();
            if (parent != null) {
                dirs.add(parent);
            }
        }
        dirs.addAll(includeDirs);
        for (Path d : dirs) {
            Path p = d.resolve(name);
            if (Files.isRegularFile(p)) {
                try {
                    process(p.toString(), Files.readString(p), out);
                    return;
                } catch (IOException e) {
                    throw new KernelSourceException(at.pos(), "cannot read " + p + ": " + e.getMessage());
                }
            }
        }
        throw new KernelSourceException(at.pos(), "include file not found: " + name);
    }

    // ---- macro expansion

    private List<Token> expand(List<Token> in, Set<String> disabled) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < in.size()) {
            Token t = in.get(i);
            Macro m = t.kind() == Token.Kind.IDENT && !disabled.contains(t.text()) ? macros.get(t.text()) : null;
            if (t.kind() == Token.Kind.IDENT && t.text().equals("__LINE__")) {
                out.add(new Token(Token.Kind.NUMBER, Integer.toString(t.pos().line()), t.pos(), t.lineStart(),
                        t.spaceBefore()));
                i++;
                continue;
            }
            if (m == null) {
                out.add(t);
                i++;
                continue;
            }
            if (!m.functionLike()) {
                Set<String> d = new HashSet<>(disabled);
                d.add(m.name());
                out.addAll(relocate(expand(paste(m.body(), Map.of()), d), t));
                i++;
                continue;
            }
            if (i + 1 >= in.size() || !in.get(i + 1).is("(")) {
                out.add(t);
                i++;
                continue;
            }
            List<List<Token>> args = new ArrayList<>();
            List<Token> cur = new ArrayList<>();
            int level = 0;
            int k = i + 2;
            for (; ; k++) {
                if (k >= in.size()) {
                    throw new KernelSourceException(t.pos(), "unterminated call of macro " + m.name());
                }
                Token a = in.get(k);
                if (level == 0 && (a.is(")") || a.is(",") && !(m.variadic() && args.size() == m.params().size() - 1))) {
                    args.add(cur);
                    cur = new ArrayList<>();
                    if (a.is(")")) {
                        break;
                    }
                    continue;
                }
                if (a.is("(")) {
                    level++;
                } else if (a.is(")")) {
                    level--;
                }
                cur.add(a);
            }
            if (args.size() == 1 && args.getFirst().isEmpty() && m.params().isEmpty()) {
                args.clear();
            }
            if (args.size() != m.params().size() && !(m.variadic() && args.size() == m.params().size() - 1)) {
                throw new KernelSourceException(t.pos(), "macro " + m.name() + " expects " + m.params().size()
                        + " arguments, got " + args.size());
            }
            while (args.size() < m.params().size()) {
                args.add(List.of());
            }
            Map<String, List<Token>> raw = new HashMap<>();
            for (int p = 0; p < m.params().size(); p++) {
                raw.put(m.params().get(p), args.get(p));
            }
            List<Token> body = substitute(m, raw, disabled);
            Set<String> d = new HashSet<>(disabled);
            d.add(m.name());
            out.addAll(relocate(expand(body, d), t));
            i = k + 1;
        }
        return out;
    }

    private static List<Token> relocate(List<Token> toks, Token at) {
        List<Token> out = new ArrayList<>(toks.size());
        boolean first = true;
        for (Token t : toks) {
            out.add(new Token(t.kind(), t.text(), at.pos(), false, first ? at.spaceBefore() : t.spaceBefore()));
            first = false;
        }
        return out;
    }

    private List<Token> substitute(Macro m, Map<String, List<Token>> raw, Set<String> disabled) {
        List<Token> body = m.body();
        List<Token> out = new ArrayList<>();
        for (int j = 0; j < body.size(); j++) {
            Token b = body.get(j);
            if (b.is("#") && j + 1 < body.size() && raw.containsKey(body.get(j + 1).text())) {
                String s = join(raw.get(body.get(j + 1).text())).replace("\\", "\\\\").replace("\"", "\\\"");
                out.add(new Token(Token.Kind.STRING, "\"" + s + "\"", b.pos(), false, b.spaceBefore()));
                j++;
                continue;
            }
            if (b.kind() == Token.Kind.IDENT && raw.containsKey(b.text())) {
                boolean pasted = j > 0 && body.get(j - 1).is("##") || j + 1 < body.size() && body.get(j + 1).is("##");
                List<Token> arg = pasted ? raw.get(b.text()) : expand(raw.get(b.text()), disabled);
                boolean first = true;
                for (Token a : arg) {
                    out.add(first ? a.spaced(b.spaceBefore()) : a);
                    first = false;
                }
                if (arg.isEmpty() && pasted) {
                    out.add(new Token(Token.Kind.IDENT, "", b.pos(), false, false));
                }
                continue;
            }
            out.add(b);
        }
        return paste(out, Map.of());
    }

    private static List<Token> paste(List<Token> toks, Map<String, List<Token>> unused) {
        if (toks.stream().noneMatch(t -> t.is("##"))) {
            return toks.stream().filter(t -> !(t.kind() == Token.Kind.IDENT && t.text().isEmpty())).toList();
        }
        List<Token> out = new ArrayList<>();
        for (int j = 0; j < toks.size(); j++) {
            Token t = toks.get(j);
            if (t.is("##") && !out.isEmpty() && j + 1 < toks.size()) {
                Token left = out.removeLast();
                Token right = toks.get(++j);
                String joined = left.text() + right.text();
                List<Token> re = Lexer.lex("<paste>", joined);
                if (re.size() != 2) {
                    throw new KernelSourceException(left.pos(), "pasting '" + left.text() + "' and '" + right.text()
                            + "' does not give a valid token");
                }
                Token r = re.getFirst();
                out.add(new Token(r.kind(), r.text(), left.pos(), false, left.spaceBefore()));
                continue;
            }
            out.add(t);
        }
        return out.stream().filter(t -> !(t.kind() == Token.Kind.IDENT && t.text().isEmpty())).toList();
    }

    // ---- #if expressions

    private long evaluate(Token at, List<Token> expr) {
        List<Token> resolved = new ArrayList<>();
        for (int j = 0; j < expr.size(); j++) {
            Token t = expr.get(j);
            if (t.is("defined")) {
                boolean paren = j + 1 < expr.size() && expr.get(j + 1).is("(");
                int n = paren ? j + 2 : j + 1;
                if (n >= expr.size()) {
                    throw new KernelSourceException(t.pos(), "defined without a name");
                }
                resolved.add(new Token(Token.Kind.NUMBER, macros.containsKey(expr.get(n).text()) ? "1" : "0", t.pos(),
                        false, true));
                j = paren ? n + 1 : n;
                continue;
            }
            resolved.add(t);
        }
        List<Token> expanded = new ArrayList<>();
        for (Token t : expand(resolved, Set.of())) {
            expanded.add(t.kind() == Token.Kind.IDENT
                    ? new Token(Token.Kind.NUMBER, "0", t.pos(), false, true) : t);
        }
        if (expanded.isEmpty()) {
            throw new KernelSourceException(at.pos(), "#" + at.text() + " without an expression");
        }
        ConstantExpression ce = new ConstantExpression(expanded);
        long v = ce.parse();
        return v;
    }
}
