package org.hetscope.capture.kernels.lang;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.capture.kernels.lang.Ast.*;

/**
 * A recursive-descent parser for the OpenCL C kernel language (the C99 subset with address-space qualifiers,
 * vector types and builtins). It types expressions as it goes, since C declares names before their use.
 */
public final class Parser {
    private static final Set<String> SPACE_WORDS = Set.of("__global", "global", "__local", "local", "__constant",
            "constant", "__private", "private", "__generic", "generic");
    private static final Set<String> QUALIFIERS = Set.of("const", "volatile", "restrict", "__restrict", "static",
            "inline", "__inline", "extern", "__read_only", "read_only", "__write_only", "write_only", "__read_write",
            "read_write", "register", "auto");
    private static final Set<String> BASE_WORDS = Set.of("void", "bool", "char", "uchar", "short", "ushort", "int",
            "uint", "long", "ulong", "float", "double", "half", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
            "unsigned", "signed", "struct", "union", "enum", "image1d_t", "image2d_t", "image3d_t", "sampler_t",
            "event_t", "image1d_buffer_t", "image1d_array_t", "image2d_array_t");

    private sealed interface Sym permits Var, TypeName, EnumConst {}

    private record Var(CType type, Space space) implements Sym {}

    private record TypeName(CType type) implements Sym {}

    private record EnumConst() implements Sym {}

    private record Spec(CType base, Space space, boolean kernel, boolean typedef, boolean isConst) {}

    private record Declarator(String name, int nameToken, CType type, Space objectSpace) {}

    private final List<Token> toks;
    private int i;
    private final Deque<Map<String, Sym>> scopes = new ArrayDeque<>();
    private final Map<String, CType.Struct> structs = new HashMap<>();
    private final Map<String, FunctionDef> functions = new HashMap<>();

    private Parser(List<Token> toks) {
        this.toks = toks;
        scopes.push(new HashMap<>());
    }

    /** Preprocesses and parses a file. */
    public static TranslationUnit parse(String file, String source) {
        return parse(new Preprocessor().run(file, source));
    }

    public static TranslationUnit parse(List<Token> preprocessed) {
        Parser p = new Parser(preprocessed);
        List<Decl> decls = new ArrayList<>();
        while (p.peek().kind() != Token.Kind.EOF) {
            Decl d = p.topLevel();
            if (d != null) {
                decls.add(d);
            }
        }
        return new TranslationUnit(preprocessed, decls);
    }

    // ---- token helpers

    private Token peek() {
        return toks.get(Math.min(i, toks.size() - 1));
    }

    /** The current token, moving on unless it is the end of file. */
    private Token next() {
        Token t = peek();
        if (t.kind() != Token.Kind.EOF) {
            i++;
        }
        return t;
    }

    private Token peek(int ahead) {
        return toks.get(Math.min(i + ahead, toks.size() - 1));
    }

    private boolean at(String s) {
        Token t = peek();
        return t.kind() != Token.Kind.STRING && t.kind() != Token.Kind.CHAR && t.text().equals(s);
    }

    private boolean accept(String s) {
        if (at(s)) {
            i++;
            return true;
        }
        return false;
    }

    private Token expect(String s) {
        if (!at(s)) {
            throw error(peek(), "expected '" + s + "'" + found());
        }
        return next();
    }

    private String found() {
        Token t = peek();
        return t.kind() == Token.Kind.EOF ? " before end of file" : " but found '" + t.text() + "'";
    }

    private static KernelSourceException error(Token t, String msg) {
        return new KernelSourceException(t.pos(), msg);
    }

    private Sym lookup(String name) {
        for (Map<String, Sym> s : scopes) {
            Sym v = s.get(name);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private boolean startsType(Token t) {
        if (t.kind() != Token.Kind.IDENT) {
            return false;
        }
        String s = t.text();
        return BASE_WORDS.contains(s) || SPACE_WORDS.contains(s) || QUALIFIERS.contains(s) || s.equals("__kernel")
                || s.equals("kernel") || s.equals("typedef") || s.equals("__attribute__")
                || CType.vector(s) != null || lookup(s) instanceof TypeName;
    }

    // ---- top level

    private Decl topLevel() {
        int start = i;
        if (peek().kind() == Token.Kind.PRAGMA) {
            i++;
            return new Other(start, start);
        }
        if (accept(";")) {
            return null;
        }
        if (!startsType(peek())) {
            throw error(peek(), "expected a declaration" + found());
        }
        Spec spec = specifiers();
        if (accept(";")) {
            return new Other(start, i - 1);
        }
        Declarator d = declarator(spec, spec.space() == null ? Space.GLOBAL : spec.space());
        if (at("(")) {
            return function(start, spec, d);
        }
        declareRest(spec, d, start, Space.GLOBAL);
        return new Other(start, i - 1);
    }

    private FunctionDef function(int start, Spec spec, Declarator d) {
        int open = i;
        expect("(");
        scopes.push(new HashMap<>());
        List<VarDecl> params = new ArrayList<>();
        if (at("void") && peek(1).is(")")) {
            i++;
        }
        while (!at(")")) {
            int ps = i;
            Spec pspec = specifiers();
            Declarator pd = declarator(pspec, pspec.space() == null ? Space.PRIVATE : pspec.space());
            CType t = pd.type() instanceof CType.Array a ? new CType.Pointer(a.element(), pd.objectSpace()) : pd.type();
            params.add(new VarDecl(ps, i - 1, pd.name(), t, Space.PRIVATE, null, pd.nameToken(), pspec.isConst()));
            if (pd.name() != null) {
                scopes.peek().put(pd.name(), new Var(t, Space.PRIVATE));
            }
            if (!accept(",")) {
                break;
            }
        }
        expect(")");
        skipAttributes();
        FunctionDef proto = new FunctionDef(start, i - 1, d.name(), d.type(), params, null, spec.kernel(), open);
        FunctionDef known = functions.get(d.name());
        if (known == null || known.body() == null) {
            functions.put(d.name(), proto);
        }
        if (accept(";")) {
            scopes.pop();
            return proto;
        }
        if (!at("{")) {
            throw error(peek(), "expected '{' or ';' after the parameters of " + d.name() + found());
        }
        Compound body = compound(false);
        scopes.pop();
        FunctionDef f = new FunctionDef(start, i - 1, d.name(), d.type(), params, body, spec.kernel(), open);
        functions.put(d.name(), f);
        return f;
    }

    private List<VarDecl> declareRest(Spec spec, Declarator first, int start, Space defaultSpace) {
        List<VarDecl> vars = new ArrayList<>();
        Declarator d = first;
        while (true) {
            if (spec.typedef()) {
                scopes.peek().put(d.name(), new TypeName(d.type()));
            } else {
                Space objectSpace = spec.space() == null ? defaultSpace : spec.space();
                if (d.type() instanceof CType.Pointer) {
                    objectSpace = Space.PRIVATE;
                }
                int declStart = vars.isEmpty() ? start : d.nameToken();
                Expr init = null;
                scopes.peek().put(d.name(), new Var(d.type(), objectSpace));
                if (accept("=")) {
                    init = at("{") ? initList(d.type()) : assignment();
                }
                vars.add(new VarDecl(declStart, i - 1, d.name(), d.type(), objectSpace, init, d.nameToken(),
                        spec.isConst()));
            }
            if (accept(",")) {
                d = declarator(spec, spec.space());
                continue;
            }
            expect(";");
            return vars;
        }
    }

    private InitList initList(CType type) {
        int start = i;
        expect("{");
        List<Expr> items = new ArrayList<>();
        while (!at("}")) {
            if (accept(".")) {
                i++;
                expect("=");
            }
            items.add(at("{") ? initList(type) : assignment());
            if (!accept(",")) {
                break;
            }
        }
        expect("}");
        return new InitList(start, i - 1, items, type);
    }

    private void skipAttributes() {
        while (at("__attribute__")) {
            i++;
            expect("(");
            int level = 1;
            while (level > 0) {
                if (peek().kind() == Token.Kind.EOF) {
                    throw error(peek(), "unterminated __attribute__");
                }
                if (at("(")) {
                    level++;
                } else if (at(")")) {
                    level--;
                }
                i++;
            }
        }
    }

    private Spec specifiers() {
        CType base = null;
        Space space = null;
        boolean kernel = false;
        boolean typedef = false;
        boolean isConst = false;
        boolean unsigned = false;
        boolean signed = false;
        int longs = 0;
        boolean sawInt = false;
        Token first = peek();
        while (true) {
            Token t = peek();
            if (t.kind() != Token.Kind.IDENT) {
                break;
            }
            String s = t.text();
            if (s.equals("__attribute__")) {
                skipAttributes();
                continue;
            }
            if (SPACE_WORDS.contains(s)) {
                space = switch (s.replace("__", "")) {
                    case "global" -> Space.GLOBAL;
                    case "local" -> Space.LOCAL;
                    case "constant" -> Space.CONSTANT;
                    default -> Space.PRIVATE;
                };
                i++;
            } else if (s.equals("__kernel") || s.equals("kernel")) {
                kernel = true;
                i++;
            } else if (s.equals("typedef")) {
                typedef = true;
                i++;
            } else if (QUALIFIERS.contains(s)) {
                isConst |= s.equals("const");
                i++;
            } else if (s.equals("unsigned")) {
                unsigned = true;
                i++;
            } else if (s.equals("signed")) {
                signed = true;
                i++;
            } else if (s.equals("long")) {
                longs++;
                i++;
            } else if (s.equals("short") || s.equals("char") || s.equals("int")) {
                if (base != null) {
                    break;
                }
                sawInt = s.equals("int");
                base = CType.scalar(s);
                i++;
            } else if (base == null && longs == 0 && (s.equals("struct") || s.equals("union"))) {
                base = struct();
            } else if (base == null && longs == 0 && s.equals("enum")) {
                base = enumeration();
            } else if (base == null && longs == 0 && !unsigned && !signed && CType.scalar(s) != null) {
                base = CType.scalar(s);
                i++;
            } else if (base == null && longs == 0 && !unsigned && CType.vector(s) != null) {
                base = CType.vector(s);
                i++;
            } else if (base == null && longs == 0 && !unsigned && s.endsWith("_t") && BASE_WORDS.contains(s)) {
                base = new CType.Opaque(s);
                i++;
            } else if (base == null && longs == 0 && !unsigned && !signed && lookup(s) instanceof TypeName tn) {
                base = tn.type();
                i++;
            } else {
                break;
            }
        }
        if (longs > 0 && (base == null || sawInt)) {
            base = CType.LONG;
        }
        if (base == null && (unsigned || signed)) {
            base = CType.INT;
        }
        if (base == null) {
            throw error(first, "expected a type" + (peek().kind() == Token.Kind.IDENT
                    ? ", '" + peek().text() + "' is not a known type" : found()));
        }
        if (unsigned && base instanceof CType.Scalar sc && !sc.floating()) {
            base = CType.scalar(sc.name().startsWith("u") ? sc.name() : "u" + sc.name());
        }
        return new Spec(base, space, kernel, typedef, isConst);
    }

    private CType struct() {
        Token kw = next();
        String tag = peek().kind() == Token.Kind.IDENT && !at("{") ? next().text() : "<anon@"
                + kw.pos().line() + ">";
        skipAttributes();
        if (!accept("{")) {
            CType.Struct known = structs.get(tag);
            return known != null ? known : new CType.Struct(tag, List.of());
        }
        List<CType.Field> fields = new ArrayList<>();
        while (!accept("}")) {
            Spec fs = specifiers();
            while (true) {
                Declarator fd = declarator(fs, Space.PRIVATE);
                fields.add(new CType.Field(fd.name(), fd.type()));
                if (!accept(",")) {
                    break;
                }
            }
            expect(";");
        }
        skipAttributes();
        CType.Struct s = new CType.Struct(tag, List.copyOf(fields));
        structs.put(tag, s);
        return s;
    }

    private CType enumeration() {
        i++;
        if (peek().kind() == Token.Kind.IDENT && !at("{")) {
            i++;
        }
        if (accept("{")) {
            while (!accept("}")) {
                Token name = next();
                if (name.kind() != Token.Kind.IDENT) {
                    throw error(name, "expected an enumerator name");
                }
                scopes.peek().put(name.text(), new EnumConst());
                if (accept("=")) {
                    conditional();
                }
                if (!accept(",")) {
                    expect("}");
                    break;
                }
            }
        }
        return CType.INT;
    }

    /** Pointers, a name (optional for abstract declarators) and array suffixes. */
    private Declarator declarator(Spec spec, Space objectSpace) {
        CType t = spec.base();
        Space pointee = spec.space() == null ? Space.PRIVATE : spec.space();
        boolean pointer = false;
        while (accept("*")) {
            t = new CType.Pointer(t, pointer ? Space.PRIVATE : pointee);
            pointer = true;
            while (peek().kind() == Token.Kind.IDENT && (QUALIFIERS.contains(peek().text())
                    || SPACE_WORDS.contains(peek().text()))) {
                i++;
            }
        }
        if (at("(") && peek(1).is("*")) {
            throw error(peek(), "function pointers are not supported in OpenCL C");
        }
        String name = null;
        int nameToken = -1;
        if (peek().kind() == Token.Kind.IDENT && !startsType(peek())) {
            nameToken = i;
            name = next().text();
        }
        List<Long> dims = new ArrayList<>();
        while (accept("[")) {
            long n = -1;
            if (!at("]")) {
                Expr e = conditional();
                n = e instanceof Literal l && !Literals.isFloating(l.text()) ? Literals.integer(toks.get(l.first())) : -1;
            }
            expect("]");
            dims.add(n);
        }
        for (int k = dims.size() - 1; k >= 0; k--) {
            t = new CType.Array(t, dims.get(k));
        }
        skipAttributes();
        return new Declarator(name, nameToken, t, pointer ? Space.PRIVATE : objectSpace);
    }

    private CType typeName() {
        Spec s = specifiers();
        Declarator d = declarator(s, Space.PRIVATE);
        if (d.name() != null) {
            throw error(toks.get(d.nameToken()), "unexpected name in a type");
        }
        return d.type();
    }

    // ---- statements

    private Compound compound(boolean newScope) {
        int start = i;
        expect("{");
        if (newScope) {
            scopes.push(new HashMap<>());
        }
        List<Stmt> items = new ArrayList<>();
        while (!at("}")) {
            if (peek().kind() == Token.Kind.EOF) {
                throw error(toks.get(start), "unterminated block: '{' has no matching '}'");
            }
            items.add(statement());
        }
        i++;
        if (newScope) {
            scopes.pop();
        }
        return new Compound(start, i - 1, items);
    }

    private Stmt statement() {
        int start = i;
        Token t = peek();
        if (t.kind() == Token.Kind.PRAGMA) {
            i++;
            return new Pragma(start, start);
        }
        if (at("{")) {
            return compound(true);
        }
        if (t.kind() == Token.Kind.IDENT) {
            switch (t.text()) {
                case "if" -> {
                    i++;
                    expect("(");
                    Expr c = expression();
                    expect(")");
                    Stmt th = statement();
                    Stmt el = accept("else") ? statement() : null;
                    return new If(start, i - 1, c, th, el);
                }
                case "while" -> {
                    i++;
                    expect("(");
                    Expr c = expression();
                    expect(")");
                    Stmt body = statement();
                    return new While(start, i - 1, c, body);
                }
                case "do" -> {
                    i++;
                    Stmt body = statement();
                    expect("while");
                    expect("(");
                    Expr c = expression();
                    expect(")");
                    expect(";");
                    return new DoWhile(start, i - 1, body, c);
                }
                case "for" -> {
                    i++;
                    expect("(");
                    scopes.push(new HashMap<>());
                    Stmt init = null;
                    if (!accept(";")) {
                        if (startsType(peek())) {
                            init = declaration();
                        } else {
                            int s = i;
                            Expr e = expression();
                            expect(";");
                            init = new ExprStmt(s, i - 1, e);
                        }
                    }
                    Expr c = at(";") ? null : expression();
                    expect(";");
                    Expr step = at(")") ? null : expression();
                    expect(")");
                    Stmt body = statement();
                    scopes.pop();
                    return new For(start, i - 1, init, c, step, body);
                }
                case "switch" -> {
                    i++;
                    expect("(");
                    Expr v = expression();
                    expect(")");
                    Stmt body = statement();
                    return new Switch(start, i - 1, v, body);
                }
                case "case" -> {
                    i++;
                    Expr v = conditional();
                    expect(":");
                    Stmt body = at("}") ? new ExprStmt(i, i - 1, null) : statement();
                    return new Case(start, i - 1, v, body);
                }
                case "default" -> {
                    i++;
                    expect(":");
                    Stmt body = at("}") ? new ExprStmt(i, i - 1, null) : statement();
                    return new Case(start, i - 1, null, body);
                }
                case "break" -> {
                    i++;
                    expect(";");
                    return new Break(start, i - 1);
                }
                case "continue" -> {
                    i++;
                    expect(";");
                    return new Continue(start, i - 1);
                }
                case "return" -> {
                    i++;
                    Expr v = at(";") ? null : expression();
                    expect(";");
                    return new Return(start, i - 1, v);
                }
                case "goto" -> {
                    i++;
                    Token label = next();
                    expect(";");
                    return new Goto(start, i - 1, label.text());
                }
                default -> {
                    if (peek(1).is(":") && !startsType(t) && lookup(t.text()) == null) {
                        i += 2;
                        Stmt body = statement();
                        return new Label(start, i - 1, t.text(), body);
                    }
                }
            }
            if (startsType(t)) {
                return declaration();
            }
        }
        if (accept(";")) {
            return new ExprStmt(start, start, null);
        }
        Expr e = expression();
        expect(";");
        return new ExprStmt(start, i - 1, e);
    }

    private DeclStmt declaration() {
        int start = i;
        Spec spec = specifiers();
        if (accept(";")) {
            return new DeclStmt(start, i - 1, List.of());
        }
        Declarator d = declarator(spec, spec.space() == null ? Space.PRIVATE : spec.space());
        if (d.name() == null) {
            throw error(peek(), "expected a variable name" + found());
        }
        List<VarDecl> vars = declareRest(spec, d, start, Space.PRIVATE);
        return new DeclStmt(start, i - 1, vars);
    }

    // ---- expressions

    private Expr expression() {
        int start = i;
        Expr e = assignment();
        while (at(",")) {
            i++;
            Expr r = assignment();
            e = new Binary(start, i - 1, ",", e, r, r.type());
        }
        return e;
    }

    private static final Set<String> ASSIGN = Set.of("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=",
            "|=");

    private Expr assignment() {
        int start = i;
        Expr left = conditional();
        if (peek().kind() == Token.Kind.PUNCT && ASSIGN.contains(peek().text())) {
            Token op = next();
            if (left.space() == null && !(left instanceof Ident id && id.variable())) {
                throw error(op, "the left side of '" + op.text() + "' is not assignable");
            }
            Expr right = assignment();
            return new Binary(start, i - 1, op.text(), left, right, left.type());
        }
        return left;
    }

    private Expr conditional() {
        int start = i;
        Expr c = binary(0);
        if (accept("?")) {
            Expr a = expression();
            expect(":");
            Expr b = conditional();
            return new Conditional(start, i - 1, c, a, b, Types.arithmetic(a.type(), b.type()));
        }
        return c;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"}};

    private Expr binary(int level) {
        if (level == LEVELS.length) {
            return unary();
        }
        int start = i;
        Expr left = binary(level + 1);
        outer:
        while (true) {
            if (peek().kind() == Token.Kind.PUNCT) {
                for (String op : LEVELS[level]) {
                    if (at(op)) {
                        i++;
                        Expr right = binary(level + 1);
                        CType t = switch (op) {
                            case "||", "&&", "==", "!=", "<", ">", "<=", ">=" ->
                                    left.type() instanceof CType.Vector v ? new CType.Vector(CType.INT, v.width())
                                            : right.type() instanceof CType.Vector v ? new CType.Vector(CType.INT,
                                            v.width()) : CType.INT;
                            case "<<", ">>" -> left.type();
                            case "-" -> left.type() instanceof CType.Pointer && right.type() instanceof CType.Pointer
                                    ? CType.LONG : Types.arithmetic(left.type(), right.type());
                            default -> Types.arithmetic(left.type(), right.type());
                        };
                        left = new Binary(start, i - 1, op, left, right, t);
                        continue outer;
                    }
                }
            }
            return left;
        }
    }

    private Expr unary() {
        int start = i;
        Token t = peek();
        if (t.kind() == Token.Kind.PUNCT) {
            switch (t.text()) {
                case "++", "--" -> {
                    i++;
                    Expr e = unary();
                    return new Unary(start, i - 1, t.text(), e, false, e.type(), null);
                }
                case "-", "+", "~" -> {
                    i++;
                    Expr e = unary();
                    return new Unary(start, i - 1, t.text(), e, false, e.type(), null);
                }
                case "!" -> {
                    i++;
                    Expr e = unary();
                    return new Unary(start, i - 1, "!", e, false, CType.INT, null);
                }
                case "*" -> {
                    i++;
                    Expr e = unary();
                    return switch (e.type()) {
                        case CType.Pointer p -> new Unary(start, i - 1, "*", e, false, p.target(), p.space());
                        case CType.Array a -> new Unary(start, i - 1, "*", e, false, a.element(),
                                e.space() == null ? Space.PRIVATE : e.space());
                        default -> throw error(t, "'*' applied to a non-pointer of type " + e.type().display());
                    };
                }
                case "&" -> {
                    i++;
                    Expr e = unary();
                    Space s = e.space() == null ? Space.PRIVATE : e.space();
                    return new Unary(start, i - 1, "&", e, false, new CType.Pointer(e.type(), s), null);
                }
                case "(" -> {
                    if (startsType(peek(1))) {
                        i++;
                        CType target = typeName();
                        expect(")");
                        if (at("(") && target instanceof CType.Vector) {
                            int ps = i;
                            i++;
                            List<Expr> parts = new ArrayList<>();
                            while (true) {
                                parts.add(assignment());
                                if (!accept(",")) {
                                    break;
                                }
                            }
                            expect(")");
                            if (parts.size() == 1) {
                                return new Cast(start, i - 1, target, parts.getFirst());
                            }
                            return new VectorLiteral(start, i - 1, target, parts);
                        }
                        if (at("{")) {
                            return initList(target);
                        }
                        Expr e = unary();
                        return new Cast(start, i - 1, target, e);
                    }
                }
                default -> { }
            }
        }
        if (t.is("sizeof")) {
            i++;
            if (at("(") && startsType(peek(1))) {
                i++;
                CType of = typeName();
                expect(")");
                return new SizeofType(start, i - 1, of);
            }
            Expr e = unary();
            return new Unary(start, i - 1, "sizeof", e, false, CType.SIZE_T, null);
        }
        return postfix(primary());
    }

    private Expr postfix(Expr e) {
        int start = e.first();
        while (true) {
            Token t = peek();
            if (at("[")) {
                i++;
                Expr idx = expression();
                expect("]");
                e = switch (e.type()) {
                    case CType.Pointer p -> new Index(start, i - 1, e, idx, p.target(), p.space());
                    case CType.Array a -> new Index(start, i - 1, e, idx, a.element(),
                            e.space() == null ? Space.PRIVATE : e.space());
                    default -> throw error(t, "subscript of a non-array of type " + e.type().display());
                };
            } else if (at(".") || at("->")) {
                boolean arrow = at("->");
                i++;
                Token name = next();
                if (name.kind() != Token.Kind.IDENT) {
                    throw error(name, "expected a member name");
                }
                CType base = e.type();
                Space space = e.space();
                if (arrow) {
                    if (!(base instanceof CType.Pointer p)) {
                        throw error(t, "'->' applied to a non-pointer");
                    }
                    base = p.target();
                    space = p.space();
                }
                CType mt = switch (base) {
                    case CType.Vector v -> Types.swizzle(v, name.text());
                    case CType.Struct s -> {
                        CType f = s.field(name.text());
                        if (f == null) {
                            throw error(name, "no member '" + name.text() + "' in struct " + s.name());
                        }
                        yield f;
                    }
                    default -> throw error(name, "member '" + name.text() + "' of a non-struct "
                            + base.display());
                };
                e = new Member(start, i - 1, e, name.text(), arrow, mt, space);
            } else if (at("++") || at("--")) {
                i++;
                e = new Unary(start, i - 1, t.text(), e, true, e.type(), null);
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        int start = i;
        Token t = toks.get(i);
        switch (t.kind()) {
            case NUMBER -> {
                i++;
                String s = t.text().toLowerCase(java.util.Locale.ROOT);
                CType type;
                if (Literals.isFloating(s)) {
                    type = s.endsWith("f") ? CType.FLOAT : s.endsWith("h") ? CType.HALF : CType.DOUBLE;
                } else {
                    Literals.integer(t);
                    type = s.endsWith("ul") || s.endsWith("lu") ? CType.ULONG : s.endsWith("l") ? CType.LONG
                            : s.endsWith("u") ? CType.UINT : CType.INT;
                }
                return new Literal(start, start, t.text(), type);
            }
            case CHAR -> {
                i++;
                return new Literal(start, start, t.text(), CType.scalar("char"));
            }
            case STRING -> {
                i++;
                while (peek().kind() == Token.Kind.STRING) {
                    i++;
                }
                return new Literal(start, i - 1, t.text(), new CType.Pointer(CType.scalar("char"), Space.CONSTANT));
            }
            case IDENT -> {
                i++;
                if (at("(")) {
                    return call(t, start);
                }
                Sym s = lookup(t.text());
                return switch (s) {
                    case Var v -> new Ident(start, start, t.text(), v.type(), v.space(), true);
                    case EnumConst ec -> new Ident(start, start, t.text(), CType.INT, null, false);
                    case TypeName tn -> throw error(t, "unexpected type name '" + t.text() + "'");
                    case null -> {
                        if (Set.of("CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "true", "false", "NULL",
                                "MAXFLOAT", "INFINITY", "NAN", "HUGE_VALF", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
                                "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "ULONG_MAX", "M_PI",
                                "M_PI_F", "CHAR_BIT", "DBL_MAX", "CLK_NORMALIZED_COORDS_FALSE",
                                "CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_FILTER_NEAREST", "CLK_ADDRESS_NONE",
                                "CLK_ADDRESS_CLAMP", "CLK_FILTER_LINEAR", "CLK_NORMALIZED_COORDS_TRUE").contains(t.text())) {
                            boolean fl = Set.of("MAXFLOAT", "INFINITY", "NAN", "HUGE_VALF", "FLT_MAX", "FLT_MIN",
                                    "FLT_EPSILON", "M_PI_F").contains(t.text());
                            yield new Ident(start, start, t.text(), fl ? CType.FLOAT
                                    : t.text().equals("M_PI") || t.text().equals("DBL_MAX") ? CType.DOUBLE : CType.INT,
                                    null, false);
                        }
                        throw error(t, "undeclared identifier '" + t.text() + "'");
                    }
                };
            }
            default -> { }
        }
        if (accept("(")) {
            Expr e = expression();
            expect(")");
            return reparen(e, start, i - 1);
        }
        throw error(t, "expected an expression" + found());
    }

    /** A parenthesised expression keeps its node but widens the token range to include the parentheses. */
    private static Expr reparen(Expr e, int first, int last) {
        return switch (e) {
            case Ident x -> new Ident(first, last, x.name(), x.type(), x.space(), x.variable());
            case Literal x -> new Literal(first, last, x.text(), x.type());
            case Unary x -> new Unary(first, last, x.op(), x.operand(), x.postfix(), x.type(), x.space());
            case SizeofType x -> new SizeofType(first, last, x.of());
            case Cast x -> new Cast(first, last, x.target(), x.operand());
            case VectorLiteral x -> new VectorLiteral(first, last, x.type(), x.parts());
            case Binary x -> new Binary(first, last, x.op(), x.left(), x.right(), x.type());
            case Conditional x -> new Conditional(first, last, x.cond(), x.then(), x.otherwise(), x.type());
            case Index x -> new Index(first, last, x.base(), x.index(), x.type(), x.space());
            case Member x -> new Member(first, last, x.base(), x.name(), x.arrow(), x.type(), x.space());
            case Call x -> new Call(first, last, x.name(), x.args(), x.type(), x.function());
            case InitList x -> new InitList(first, last, x.items(), x.type());
        };
    }

    private Expr call(Token name, int start) {
        expect("(");
        List<Expr> args = new ArrayList<>();
        while (!at(")")) {
            args.add(assignment());
            if (!accept(",")) {
                break;
            }
        }
        expect(")");
        FunctionDef f = functions.get(name.text());
        if (f != null) {
            return new Call(start, i - 1, name.text(), args, f.returnType(), f);
        }
        if (!Builtins.known(name.text())) {
            throw error(name, "call of undeclared function '" + name.text() + "'");
        }
        return new Call(start, i - 1, name.text(), args, Builtins.resultType(name.text(), args), null);
    }
}
