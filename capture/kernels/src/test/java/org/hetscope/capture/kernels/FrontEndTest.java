package org.hetscope.capture.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.cfg.Anchor;
import org.hetscope.capture.kernels.cfg.Cfg;
import org.hetscope.capture.kernels.cfg.EdgeKind;
import org.hetscope.capture.kernels.cfg.UnsupportedKernelException;
import org.hetscope.capture.kernels.instrument.KernelScope;
import org.hetscope.capture.kernels.instrument.Tracepoints;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.CType;
import org.hetscope.capture.kernels.lang.KernelSourceException;
import org.hetscope.capture.kernels.lang.Parser;
import org.hetscope.capture.kernels.lang.Preprocessor;
import org.hetscope.capture.kernels.lang.Space;
import org.hetscope.capture.kernels.lang.Token;
import org.junit.jupiter.api.Test;

/** Preprocessor, parser, types and CFG without a device. */
class FrontEndTest {

    private static String text(List<Token> toks) {
        StringBuilder sb = new StringBuilder();
        for (Token t : toks) {
            if (t.kind() != Token.Kind.EOF) {
                sb.append(t.text()).append(' ');
            }
        }
        return sb.toString().trim();
    }

    @Test
    void macrosConditionalsAndIncludes() {
        Preprocessor pp = new Preprocessor(List.of(), Map.of("defs.h", "#define N 4\n#define SQ(x) ((x) * (x))\n"));
        List<Token> toks = pp.run("main.cl", """
                #include "defs.h"
                #define CAT(a, b) a ## b
                #define STR(a) #a
                #if defined(N) && N > 3
                int CAT(va, lue) = SQ(N + 1);
                #elif N == 2
                int wrong;
                #else
                int wrong2;
                #endif
                #ifndef MISSING
                const char *s = STR(hi there);
                #endif
                #undef N
                #ifdef N
                int gone;
                #endif
                """);
        assertEquals("int value = ( ( 4 + 1 ) * ( 4 + 1 ) ) ; const char * s = \"hi there\" ;", text(toks));
        // expanded tokens carry the line of the invocation
        assertEquals(5, toks.get(3).pos().line());
    }

    @Test
    void malformedSourceNamesLineAndColumn() {
        record Case(String src, String where, String what) {}
        List<Case> cases = List.of(
                new Case("__kernel void k(__global int *a) {\n  int x = 1\n  a[0] = x;\n}\n", "bad.cl:3:3",
                        "expected ';'"),
                new Case("__kernel void k(__global int *a) {\n  a[0] = y;\n}\n", "bad.cl:2:10", "undeclared identifier 'y'"),
                new Case("__kernel void k(__global int *a) {\n  if (a[0] {\n}\n", "bad.cl:2:12", "expected ')'"),
                new Case("__kernel void k(__global int *a) {\n  a[0] = 1;\n", "bad.cl:1:34", "unterminated block"),
                new Case("/* open\n__kernel void k() {}\n", "bad.cl:1:1", "unterminated comment"),
                new Case("#if 1\nint x;\n", "bad.cl", "missing #endif"),
                new Case("#define F(a, b) a\nint x = F(1);\n", "bad.cl:2:9", "expects 2 arguments"),
                new Case("int x = 1 @ 2;\n", "bad.cl:1:11", "unexpected character '@'"),
                new Case("#error stop here\n", "bad.cl:1:2", "#error stop here"));
        for (Case c : cases) {
            KernelSourceException e = assertThrows(KernelSourceException.class, () -> Parser.parse("bad.cl", c.src()),
                    c.src());
            assertTrue(e.getMessage().startsWith(c.where()), e.getMessage() + " should start with " + c.where());
            assertTrue(e.getMessage().contains(c.what()), e.getMessage());
        }
    }

    /** Damaged variants of every test kernel either parse and instrument, or fail with a positioned message. */
    @Test
    void damagedSourceNeverCrashes() throws Exception {
        java.util.Random rnd = new java.util.Random(7);
        int rejected = 0;
        try (var files = Files.list(SuiteKernel.dir())) {
            for (java.nio.file.Path p : files.sorted().toList()) {
                String src = Files.readString(p);
                for (int t = 0; t < 150; t++) {
                    StringBuilder b = new StringBuilder(src);
                    int pos = rnd.nextInt(b.length());
                    switch (rnd.nextInt(3)) {
                        case 0 -> b.setLength(pos);
                        case 1 -> b.deleteCharAt(pos);
                        default -> b.insert(pos, "(){};,+*#\"'/".charAt(rnd.nextInt(12)));
                    }
                    try {
                        Ast.TranslationUnit u = Parser.parse("damaged.cl", b.toString());
                        for (Ast.FunctionDef k : u.kernels()) {
                            try {
                                KernelScope sc = KernelScope.of(u, k.name());
                                org.hetscope.capture.kernels.instrument.CounterInstrumenter.instrument(sc,
                                        org.hetscope.capture.kernels.instrument.CounterPlan.Mode.ATOMIC);
                                org.hetscope.capture.kernels.instrument.TraceInstrumenter.instrument(sc,
                                        Tracepoints.withTripCounts(sc.cfg()),
                                        org.hetscope.capture.kernels.instrument.TraceCollector.RECORD, 0);
                            } catch (UnsupportedKernelException e) {
                                assertTrue(e.getMessage().startsWith("damaged.cl:"), e.getMessage());
                            }
                        }
                    } catch (KernelSourceException e) {
                        rejected++;
                        assertTrue(e.getMessage().matches("(damaged\\.cl|<paste>|<command line>):\\d+:\\d+: .*"),
                                e.getMessage());
                    }
                }
            }
        }
        assertTrue(rejected > 100, "most damage is rejected: " + rejected);
    }

    @Test
    void typesAndAddressSpaces() {
        Ast.TranslationUnit u = Parser.parse("t.cl", """
                typedef struct { float4 pos; int id; } Item;
                __constant float table[4] = {1, 2, 3, 4};
                __kernel void k(__global Item *items, __local float *tile, __global const double *d) {
                    __local int flags[8][8];
                    float4 v = items[0].pos;
                    float x = v.x + table[1] * tile[2];
                    flags[1][2] = (int) d[0];
                }
                """);
        Ast.FunctionDef k = u.function("k");
        assertEquals(new CType.Pointer(CType.DOUBLE, Space.GLOBAL), k.params().get(2).type());
        assertTrue(k.params().get(2).isConst());
        Ast.DeclStmt x = (Ast.DeclStmt) k.body().items().get(2);
        Ast.Binary sum = (Ast.Binary) x.vars().getFirst().init();
        assertEquals(CType.FLOAT, sum.type());
        Ast.Binary product = (Ast.Binary) sum.right();
        assertEquals(Space.CONSTANT, product.left().space());
        assertEquals(Space.LOCAL, product.right().space());
        Ast.ExprStmt store = (Ast.ExprStmt) k.body().items().get(3);
        Ast.Binary assign = (Ast.Binary) store.expr();
        assertEquals(Space.LOCAL, assign.left().space());
        assertEquals(CType.INT, assign.left().type());
    }

    /** The CFG of spec test 2: B0 entry+condition, B1 then, B2 loop test, B3 body, B4 store, B5 else/return. */
    @Test
    void knnControlFlowGraph() throws Exception {
        String src = Files.readString(SuiteKernel.dir().resolve("knn.cl"));
        KernelScope scope = KernelScope.of(Parser.parse("knn.cl", src), "compute");
        Cfg cfg = scope.cfg();
        assertEquals(6, cfg.blocks().size());
        assertEquals("[B0[B1:TRUE, B5:FALSE], B1[B2:JUMP], B2[B3:TRUE, B4:FALSE], B3[B2:JUMP], B4[exit:JUMP], "
                + "B5[exit:JUMP]]", cfg.blocks().toString());
        assertInstanceOf(Anchor.Entry.class, cfg.block(0).anchor());
        assertInstanceOf(Anchor.Cond.class, cfg.block(2).anchor());
        Tracepoints reduced = Tracepoints.reduced(cfg);
        assertEquals(2, reduced.sites());
        assertEquals(0, reduced.blockPoints().cardinality());
        assertEquals(List.of(EdgeKind.TRUE, EdgeKind.TRUE), reduced.edgePoints().stream()
                .mapToObj(e -> cfg.edges().get(e).kind()).toList());
    }

    @Test
    void unsupportedConstructsAreNamed() {
        UnsupportedKernelException e = assertThrows(UnsupportedKernelException.class, () -> KernelScope.of(
                Parser.parse("c.cl", "__kernel void k(__global int *g) {\n  __local int *l = (__local int *) g;\n}\n"),
                "k"));
        assertTrue(e.getMessage().startsWith("c.cl:2:20"), e.getMessage());
        assertThrows(UnsupportedKernelException.class, () -> KernelScope.of(Parser.parse("r.cl",
                "int f(int x) { return x > 0 ? f(x - 1) : 0; }\n__kernel void k(__global int *a) { a[0] = f(3); }"),
                "k"));
    }
}
