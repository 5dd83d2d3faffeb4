/**
 * A Common Trace Format reader: CTF 1.8 (TSDL metadata, plain or packetized) and CTF 2 (JSON fragment
 * metadata), as written by LTTng, rocprofv3 through babeltrace2, barectf, THAPI and others.
 *
 * <h2>Reading events</h2>
 * <pre>{@code
 * try (CtfTrace trace = CtfTrace.open(Path.of("session-folder"));   // one trace folder or a folder of them
 *      CtfTrace.Cursor events = trace.cursor()) {                     // all streams merged by time
 *     while (events.next()) {
 *         CtfEvent e = events.event();        // a view, valid until the next call to next()
 *         long ns = e.timestampNs();          // ns from the clock origin, clock offsets applied
 *         String name = e.name();             // e.g. "lttng_ust_libc:malloc"
 *         long size = e.getLong("size");      // payload, then event context, stream event context, packet context
 *         String s = e.getString("procname"); // names with or without CTF 1.8's leading underscore
 *         double v = e.getDouble("value");
 *         e.visit(visitor);                   // every field, nested, typed: see FieldVisitor
 *     }
 *     trace.problems();                       // damaged packets: file, packet offset, event offset, reason
 *     trace.streamStats();                    // per stream: packets, events, discarded events, lost packets
 * }
 * }</pre>
 * {@link org.hetscope.formats.ctf.CtfTrace#count(int)} decodes every field of every event with the streams spread
 * over threads, without merging; {@link org.hetscope.formats.ctf.EventText} prints an event the way
 * babeltrace2's pretty sink does.
 *
 * <h2>How decoding works</h2>
 * The metadata ({@link org.hetscope.formats.ctf.MetadataReader}, {@code meta.TsdlParser}, {@code meta.Ctf2Parser})
 * becomes declared field types ({@code meta.FieldType}); per scope of use they are compiled into field nodes whose
 * length, tag and selector references are resolved to registers (TSDL scope rules: enclosing structures first,
 * then absolute paths, then earlier scopes). A stream decoder memory-maps its file, walks packets (through the
 * LTTng packet index when present, else packet sizes), and decodes each event into a reused array of longs,
 * with no allocation per event. Integers narrower than 64 bits that carry a clock (event header timestamps) extend
 * the stream's clock value with wrap-around; special fields (magic, stream id, sizes, events_discarded,
 * packet_seq_num) are found by name (CTF 1.8) or role (CTF 2). A damaged packet is reported and decoding
 * resumes at the next packet that can be located.
 *
 * <p>Field nodes are an interpreter: each field costs a virtual call and reads its size, alignment and byte order
 * from the node. Once a stream class or an event class has decoded 64 events, {@link
 * org.hetscope.formats.ctf.ScopeCompiler} turns its scopes into a hidden class of straight-line bytecode (ASM)
 * with those as constants and structures and variants inlined, which the JIT compiles like hand-written code:
 * 3-4x faster per event. The generated code leaves the same tape, registers and errors as the interpreter; a test
 * decodes every fixture, and damaged copies, both ways in lockstep. {@code -Dhetscope.ctf.codegen=false} keeps the
 * interpreter.
 *
 * <p>The {@code mapping} sub-package turns events into the hetscope model (format name {@code ctf}).
 */
package org.hetscope.formats.ctf;
