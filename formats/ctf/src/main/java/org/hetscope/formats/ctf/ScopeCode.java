package org.hetscope.formats.ctf;

/**
 * The decoding of one or two consecutive dynamic scopes compiled to JVM bytecode by {@link ScopeCompiler}: the same
 * tape, registers, roles and position as {@link FieldNode#decode} would leave, without a virtual call or a layout
 * lookup per field. Subclasses are generated at run time; fields they do not compile inline are decoded by the
 * {@link FieldNode}s in {@link #fallbacks}.
 */
abstract class ScopeCode {
    /** Nodes the generated code hands over to, by index (final: instances may be shared between threads racily). */
    protected final FieldNode[] fallbacks;

    protected ScopeCode(FieldNode[] fallbacks) {
        this.fallbacks = fallbacks;
    }

    abstract void decode(StreamDecoder d);
}
