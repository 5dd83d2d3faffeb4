package org.hetscope.capture.kernels.lang;

import java.util.List;

/**
 * The syntax tree of an OpenCL C translation unit. Every node knows the range of preprocessed tokens it was
 * parsed from ({@code first}..{@code last}, inclusive indices into {@link TranslationUnit#tokens()}), which is
 * how the instrumenter rewrites source and how results map to source lines.
 */
public final class Ast {
    private Ast() {}

    /** Any node. */
    public sealed interface Node permits Expr, Stmt, Decl {
        int first();

        int last();
    }

    // ---- expressions; each carries its type and, for lvalues living in memory, their address space

    /** An expression; {@code type} is its type, {@code space} the address space of the object it designates. */
    public sealed interface Expr extends Node {
        CType type();

        /** The address space of the object an lvalue designates; null for non-lvalues. */
        Space space();
    }

    public record Ident(int first, int last, String name, CType type, Space space, boolean variable) implements Expr {}

    public record Literal(int first, int last, String text, CType type) implements Expr {
        public Space space() {
            return null;
        }
    }

    /** Unary operators; {@code postfix} for {@code x++}/{@code x--}. {@code op} "sizeof" for sizeof expr. */
    public record Unary(int first, int last, String op, Expr operand, boolean postfix, CType type, Space space)
            implements Expr {}

    public record SizeofType(int first, int last, CType of) implements Expr {
        public CType type() {
            return CType.SIZE_T;
        }

        public Space space() {
            return null;
        }
    }

    public record Cast(int first, int last, CType target, Expr operand) implements Expr {
        public CType type() {
            return target;
        }

        public Space space() {
            return null;
        }
    }

    /** {@code (float4)(a, b, c, d)}. */
    public record VectorLiteral(int first, int last, CType type, List<Expr> parts) implements Expr {
        public Space space() {
            return null;
        }
    }

    /** Binary operators, assignments ({@code =}, {@code +=} ...) and the comma operator. */
    public record Binary(int first, int last, String op, Expr left, Expr right, CType type) implements Expr {
        public Space space() {
            return null;
        }

        public boolean assignment() {
            return op.endsWith("=") && !op.equals("==") && !op.equals("!=") && !op.equals("<=") && !op.equals(">=");
        }
    }

    public record Conditional(int first, int last, Expr cond, Expr then, Expr otherwise, CType type) implements Expr {
        public Space space() {
            return null;
        }
    }

    public record Index(int first, int last, Expr base, Expr index, CType type, Space space) implements Expr {}

    public record Member(int first, int last, Expr base, String name, boolean arrow, CType type, Space space)
            implements Expr {}

    /** A call; {@code function} is the user function called, or null for builtins. */
    public record Call(int first, int last, String name, List<Expr> args, CType type, FunctionDef function)
            implements Expr {
        public Space space() {
            return null;
        }
    }

    /** A brace initializer {@code {a, b, ...}}. */
    public record InitList(int first, int last, List<Expr> items, CType type) implements Expr {
        public Space space() {
            return null;
        }
    }

    // ---- statements

    public sealed interface Stmt extends Node {}

    public record Compound(int first, int last, List<Stmt> items) implements Stmt {}

    public record DeclStmt(int first, int last, List<VarDecl> vars) implements Stmt {}

    /** An expression statement; {@code expr} is null for the empty statement {@code ;}. */
    public record ExprStmt(int first, int last, Expr expr) implements Stmt {}

    public record If(int first, int last, Expr cond, Stmt then, Stmt otherwise) implements Stmt {}

    public record While(int first, int last, Expr cond, Stmt body) implements Stmt {}

    public record DoWhile(int first, int last, Stmt body, Expr cond) implements Stmt {}

    /** {@code init} is a DeclStmt, an ExprStmt or null; cond and step may be null. */
    public record For(int first, int last, Stmt init, Expr cond, Expr step, Stmt body) implements Stmt {}

    public record Switch(int first, int last, Expr value, Stmt body) implements Stmt {}

    /** {@code case value:} ({@code value} null for {@code default:}) labelling {@code body}. */
    public record Case(int first, int last, Expr value, Stmt body) implements Stmt {}

    public record Break(int first, int last) implements Stmt {}

    public record Continue(int first, int last) implements Stmt {}

    public record Return(int first, int last, Expr value) implements Stmt {}

    public record Goto(int first, int last, String label) implements Stmt {}

    public record Label(int first, int last, String name, Stmt body) implements Stmt {}

    /** A {@code #pragma} inside a function body. */
    public record Pragma(int first, int last) implements Stmt {}

    // ---- declarations

    public sealed interface Decl extends Node {}

    /**
     * A variable or parameter. {@code space} is where the object lives (a {@code __local} array, a
     * {@code __constant} table); for pointers the pointee's space is in {@code type}. {@code nameToken} indexes
     * the declared name.
     */
    public record VarDecl(int first, int last, String name, CType type, Space space, Expr init, int nameToken,
                          boolean isConst) implements Decl {}

    /** A function definition or prototype ({@code body} null). {@code openParen} indexes its parameter list. */
    public record FunctionDef(int first, int last, String name, CType returnType, List<VarDecl> params,
                              Compound body, boolean kernel, int openParen) implements Decl {}

    /** Any other top-level item (typedef, struct, global variable, pragma), copied verbatim. */
    public record Other(int first, int last) implements Decl {}

    /** A parsed file: its preprocessed tokens and top-level declarations. */
    public record TranslationUnit(List<Token> tokens, List<Decl> decls) {
        public FunctionDef function(String name) {
            for (Decl d : decls) {
                if (d instanceof FunctionDef f && f.name().equals(name) && f.body() != null) {
                    return f;
                }
            }
            return null;
        }

        public List<FunctionDef> kernels() {
            return decls.stream().filter(d -> d instanceof FunctionDef f && f.kernel() && f.body() != null)
                    .map(d -> (FunctionDef) d).toList();
        }

        public SourcePos pos(Node n) {
            return tokens.get(n.first()).pos();
        }
    }
}
