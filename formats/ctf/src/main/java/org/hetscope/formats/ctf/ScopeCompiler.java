package org.hetscope.formats.ctf;

import static org.objectweb.asm.Opcodes.AALOAD;
import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PUBLIC;
import static org.objectweb.asm.Opcodes.ACC_SUPER;
import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.DUP;
import static org.objectweb.asm.Opcodes.F2D;
import static org.objectweb.asm.Opcodes.GETFIELD;
import static org.objectweb.asm.Opcodes.GOTO;
import static org.objectweb.asm.Opcodes.ICONST_0;
import static org.objectweb.asm.Opcodes.ICONST_1;
import static org.objectweb.asm.Opcodes.IFGT;
import static org.objectweb.asm.Opcodes.IFLT;
import static org.objectweb.asm.Opcodes.INVOKESPECIAL;
import static org.objectweb.asm.Opcodes.INVOKESTATIC;
import static org.objectweb.asm.Opcodes.INVOKEVIRTUAL;
import static org.objectweb.asm.Opcodes.L2I;
import static org.objectweb.asm.Opcodes.LADD;
import static org.objectweb.asm.Opcodes.LALOAD;
import static org.objectweb.asm.Opcodes.LASTORE;
import static org.objectweb.asm.Opcodes.LCMP;
import static org.objectweb.asm.Opcodes.LLOAD;
import static org.objectweb.asm.Opcodes.LSTORE;
import static org.objectweb.asm.Opcodes.LXOR;
import static org.objectweb.asm.Opcodes.PUTFIELD;
import static org.objectweb.asm.Opcodes.RETURN;
import static org.objectweb.asm.Opcodes.V17;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Compiles the {@link FieldNode} layout of dynamic scopes into a hidden class ({@link ScopeCode}) whose straight-line
 * code decodes them: sizes, byte orders, alignments, registers and roles become constants, byte-aligned integers
 * are read with one buffer load after one bounds check, and structures and variants are inlined. Integers whose
 * position is not known to be byte-aligned, strings and byte runs call the decoder's own primitives; arrays,
 * sequences, optionals and variable-length integers are handed to their {@link FieldNode}. Anything out of bounds
 * takes the decoder's primitive, which throws the same {@link DecodeException} the interpreter would.
 *
 * <p>Generated code is equivalent to {@link FieldNode#decode} by construction and by test ({@code
 * ScopeCompilerTest} decodes every fixture both ways and compares every event's tape, position and clock). It pays
 * for itself on event classes seen often: the trace compiles an event class after it has decoded a few of its
 * events (see {@link CompiledTrace}).
 */
final class ScopeCompiler {
    /**
     * Largest generated class kept, in bytes: its one real method must stay under the JIT's HugeMethodLimit (8,000
     * bytecode bytes), above which it would run interpreted; the class's constant pool and header count too, so the
     * bound errs on the side of keeping the interpreter.
     */
    static final int MAX_BYTECODE = 7000;

    private static final String DECODER = "org/hetscope/formats/ctf/StreamDecoder";
    private static final String NODE = "org/hetscope/formats/ctf/FieldNode";
    private static final String BASE = "org/hetscope/formats/ctf/ScopeCode";
    private static final String DECODE_DESC = "(L" + DECODER + ";)V";

    private static final int THIS = 0;
    private static final int D = 1;
    private static final int V = 2;
    private static final int TAG = 4;

    private final MethodVisitor mv;
    private final List<FieldNode> fallbacks = new ArrayList<>();
    /** Static knowledge of the position: {@code bitPos ≡ offset (mod known)}, {@code known} a power of two. */
    private long known = 1;
    private long offset;

    private ScopeCompiler(MethodVisitor mv) {
        this.mv = mv;
    }

    /**
     * Compiles {@code first}, then the store of the tape length into the decoder's int field {@code marker}, then
     * {@code second} (either scope may be null). Returns null when the generated method would be too large for the
     * JIT.
     */
    static ScopeCode compile(FieldNode first, String marker, FieldNode second) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object"; // merges only ever meet one type; never load classes to find out
            }
        };
        cw.visit(V17, ACC_FINAL | ACC_SUPER, "org/hetscope/formats/ctf/GeneratedScope", null, BASE, null);
        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "([L" + NODE + ";)V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitVarInsn(ALOAD, 1);
        init.visitMethodInsn(INVOKESPECIAL, BASE, "<init>", "([L" + NODE + ";)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor mv = cw.visitMethod(0, "decode", DECODE_DESC, null, null);
        mv.visitCode();
        ScopeCompiler c = new ScopeCompiler(mv);
        if (first != null) {
            c.node(first);
        }
        mv.visitVarInsn(ALOAD, D);
        mv.visitVarInsn(ALOAD, D);
        mv.visitFieldInsn(GETFIELD, DECODER, "tapeLen", "I");
        mv.visitFieldInsn(PUTFIELD, DECODER, marker, "I");
        if (second != null) {
            c.node(second);
        }
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        if (bytes.length > MAX_BYTECODE) {
            return null;
        }
        try {
            Class<?> cls = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
            return (ScopeCode) cls.getConstructor(FieldNode[].class)
                    .newInstance((Object) c.fallbacks.toArray(FieldNode[]::new));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("generated decoder rejected", e);
        }
    }

    // ---------------------------------------------------------------- nodes

    private void node(FieldNode n) {
        // if/else over the node kinds, as in LayoutCompiler: no pattern switch to bootstrap at start-up
        if (n instanceof FieldNode.Int i) {
            alignTo(i.align);
            readInt(i.size, i.bigEndian, i.signed);
            afterInt(i, i.size);
        } else if (n instanceof FieldNode.Enum e && e.container instanceof FieldNode.Int i) {
            node(i);
            afterInt(e, i.size);
        } else if (n instanceof FieldNode.Float f) {
            alignTo(f.align);
            readInt(f.size, f.bigEndian, false);
            if (f.size == 32) {
                mv.visitVarInsn(LLOAD, V);
                mv.visitInsn(L2I);
                mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
                mv.visitInsn(F2D);
                mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "doubleToRawLongBits", "(D)J", false);
                mv.visitVarInsn(LSTORE, V);
            }
            push();
        } else if (n instanceof FieldNode.Str) {
            alignTo(8);
            mv.visitVarInsn(ALOAD, D);
            mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, "readCString", "()V", false);
            known = 8;
            offset = 0;
        } else if (n instanceof FieldNode.Bytes b) {
            alignTo(b.align);
            boolean byteAligned = isByteAligned();
            mv.visitVarInsn(ALOAD, D);
            if (b.lengthReg >= 0) {
                mv.visitVarInsn(ALOAD, D);
                register(b.lengthReg);
            } else {
                mv.visitLdcInsn((long) b.length);
            }
            mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, "readBytes", "(J)V", false);
            if (byteAligned) {
                known = 8;
                offset = 0;
            } else {
                forget();
            }
        } else if (n instanceof FieldNode.Struct s) {
            alignTo(s.align);
            for (FieldNode m : s.members) {
                node(m);
            }
        } else if (n instanceof FieldNode.Variant v) {
            variant(v);
        } else {
            fallback(n);
        }
    }

    private void variant(FieldNode.Variant v) {
        mv.visitVarInsn(ALOAD, D);
        register(v.tagReg);
        // as FieldNode.Variant.select: an unsigned tag and its bounds compare with their sign bits flipped
        long bias = v.unsignedTag ? Long.MIN_VALUE : 0;
        if (bias != 0) {
            mv.visitLdcInsn(bias);
            mv.visitInsn(LXOR);
        }
        mv.visitVarInsn(LSTORE, TAG);
        Label end = new Label();
        Label[] options = new Label[v.options.length];
        for (int i = 0; i < options.length; i++) {
            options[i] = new Label();
            long[] r = v.ranges[i];
            for (int k = 0; k < r.length; k += 2) {
                Label next = new Label();
                mv.visitVarInsn(LLOAD, TAG);
                mv.visitLdcInsn(r[k] ^ bias);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(IFLT, next);
                mv.visitVarInsn(LLOAD, TAG);
                mv.visitLdcInsn(r[k + 1] ^ bias);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(IFGT, next);
                mv.visitJumpInsn(GOTO, options[i]);
                mv.visitLabel(next);
            }
        }
        long entryKnown = known;
        long entryOffset = offset;
        callFallback(v); // no option matches: the interpreter throws the unknown-tag error
        mv.visitJumpInsn(GOTO, end);
        long outKnown = -1;
        long outOffset = 0;
        for (int i = 0; i < options.length; i++) {
            mv.visitLabel(options[i]);
            known = entryKnown;
            offset = entryOffset;
            mv.visitVarInsn(ALOAD, D);
            mv.visitLdcInsn((long) i);
            mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, "push", "(J)V", false);
            node(v.options[i]);
            mv.visitJumpInsn(GOTO, end);
            if (outKnown < 0) {
                outKnown = known;
                outOffset = offset;
            } else {
                // what every option guarantees: the largest alignment at which all end at the same offset
                long k = Math.min(outKnown, known);
                while (k > 1 && Math.floorMod(outOffset, k) != Math.floorMod(offset, k)) {
                    k >>= 1;
                }
                outKnown = k;
                outOffset = Math.floorMod(offset, k);
            }
        }
        mv.visitLabel(end);
        known = outKnown < 0 ? 1 : outKnown;
        offset = outKnown < 0 ? 0 : outOffset;
    }

    private void fallback(FieldNode n) {
        callFallback(n);
        forget();
    }

    private void callFallback(FieldNode n) {
        int index = fallbacks.size();
        fallbacks.add(n);
        mv.visitVarInsn(ALOAD, THIS);
        mv.visitFieldInsn(GETFIELD, BASE, "fallbacks", "[L" + NODE + ";");
        mv.visitLdcInsn(index);
        mv.visitInsn(AALOAD);
        mv.visitVarInsn(ALOAD, D);
        mv.visitMethodInsn(INVOKEVIRTUAL, NODE, "decode", DECODE_DESC, false);
    }

    // ---------------------------------------------------------------- primitives

    /** Reads an integer into local {@code V}, advancing the position (as {@link StreamDecoder#readInt}). */
    private void readInt(int size, boolean bigEndian, boolean signed) {
        boolean aligned = isByteAligned() && (size == 8 || size == 16 || size == 32 || size == 64);
        mv.visitVarInsn(ALOAD, D);
        mv.visitLdcInsn(size);
        mv.visitInsn(bigEndian ? ICONST_1 : ICONST_0);
        mv.visitInsn(signed ? ICONST_1 : ICONST_0);
        // calls rather than the loads themselves: the method stays small enough for the JIT to inline it whole
        mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, aligned ? "readAlignedInt" : "readInt", "(IZZ)J", false);
        mv.visitVarInsn(LSTORE, V);
        offset += size;
        normalise();
    }

    /** After an integer (or the enumeration around one) is in {@code V}: tape, register and role, in that order. */
    private void afterInt(FieldNode n, int size) {
        if (n instanceof FieldNode.Int) {
            push();
        }
        if (n.reg >= 0) {
            mv.visitVarInsn(ALOAD, D);
            mv.visitFieldInsn(GETFIELD, DECODER, "regs", "[J");
            mv.visitLdcInsn(n.reg);
            mv.visitVarInsn(LLOAD, V);
            mv.visitInsn(LASTORE);
        }
        if (n.role != 0) {
            mv.visitVarInsn(ALOAD, D);
            mv.visitLdcInsn(n.role);
            mv.visitVarInsn(LLOAD, V);
            mv.visitLdcInsn(size);
            mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, "role", "(IJI)V", false);
        }
    }

    private void push() {
        mv.visitVarInsn(ALOAD, D);
        mv.visitVarInsn(LLOAD, V);
        mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, "push", "(J)V", false);
    }

    /** Pushes {@code d.regs[reg]}; expects the decoder on the stack. */
    private void register(int reg) {
        mv.visitFieldInsn(GETFIELD, DECODER, "regs", "[J");
        mv.visitLdcInsn(reg);
        mv.visitInsn(LALOAD);
    }

    /** Aligns the position as {@link StreamDecoder#alignTo}, at no cost where the alignment is already known. */
    private void alignTo(int align) {
        if (align <= 1) {
            return;
        }
        boolean power = (align & (align - 1)) == 0;
        if (power && align <= known) {
            long pad = Math.floorMod(-offset, (long) align);
            if (pad != 0) {
                mv.visitVarInsn(ALOAD, D);
                mv.visitInsn(DUP);
                mv.visitFieldInsn(GETFIELD, DECODER, "bitPos", "J");
                mv.visitLdcInsn(pad);
                mv.visitInsn(LADD);
                mv.visitFieldInsn(PUTFIELD, DECODER, "bitPos", "J");
                offset += pad;
                normalise();
            }
            return;
        }
        mv.visitVarInsn(ALOAD, D);
        mv.visitLdcInsn(align);
        mv.visitMethodInsn(INVOKEVIRTUAL, DECODER, "alignTo", "(I)V", false);
        if (power) {
            known = align;
            offset = 0;
        } else {
            forget();
        }
    }

    private boolean isByteAligned() {
        return known >= 8 && (offset & 7) == 0;
    }

    private void normalise() {
        offset = Math.floorMod(offset, known);
    }

    private void forget() {
        known = 1;
        offset = 0;
    }
}
