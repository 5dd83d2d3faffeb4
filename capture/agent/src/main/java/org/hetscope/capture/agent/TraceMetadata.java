package org.hetscope.capture.agent;

import java.util.Map;
import java.util.UUID;

/**
 * The CTF 1.8 metadata (TSDL) of the agent's traces: packet layout, the host clock, the two stream classes and
 * their event classes. Event ids are the constants below; docs/schema.md ("Capture agent") documents each field.
 */
public final class TraceMetadata {
    private TraceMetadata() {}

    /** Value of {@code env.tracer_name}: how readers recognise the agent's traces. */
    public static final String TRACER_NAME = "hetscope-opencl-agent";
    public static final int FORMAT_MAJOR = 1;
    public static final int FORMAT_MINOR = 0;

    public static final int STREAM_HOST = 0;
    public static final int STREAM_DEVICE = 1;

    // host stream (one per Java thread)
    public static final int API_CALL = 0;
    public static final int THREAD = 1;
    public static final int PLATFORM = 2;
    public static final int DEVICE = 3;
    public static final int CONTEXT = 4;
    public static final int QUEUE = 5;
    public static final int MEM_CREATE = 6;
    public static final int MEM_RELEASE = 7;
    public static final int MEM_RETAIN = 8;
    public static final int PROGRAM = 9;
    public static final int PROGRAM_BUILD = 10;
    public static final int KERNEL = 11;
    public static final int KERNEL_ARG = 12;
    public static final int ENQUEUE_KERNEL = 13;
    public static final int ENQUEUE_MEM = 14;
    public static final int ENQUEUE_OTHER = 15;
    public static final int WAIT = 16;

    // device stream (one per command queue)
    public static final int COMMAND = 0;

    /** Direction codes of {@code enqueue_mem.direction}. */
    public static final int DIR_NONE = 0;
    public static final int DIR_HTOD = 1;
    public static final int DIR_DTOH = 2;
    public static final int DIR_DTOD = 3;
    public static final int DIR_FILL = 4;
    public static final int DIR_MAP = 5;
    public static final int DIR_UNMAP = 6;

    /** OpenCL command types (cl_command_type) named in the enumeration of command events. */
    private static final Map<String, Integer> COMMAND_TYPES = new java.util.LinkedHashMap<>();

    static {
        String[] names = {"NDRANGE_KERNEL", "TASK", "NATIVE_KERNEL", "READ_BUFFER", "WRITE_BUFFER", "COPY_BUFFER",
            "READ_IMAGE", "WRITE_IMAGE", "COPY_IMAGE", "COPY_IMAGE_TO_BUFFER", "COPY_BUFFER_TO_IMAGE", "MAP_BUFFER",
            "MAP_IMAGE", "UNMAP_MEM_OBJECT", "MARKER", "ACQUIRE_GL_OBJECTS", "RELEASE_GL_OBJECTS",
            "READ_BUFFER_RECT", "WRITE_BUFFER_RECT", "COPY_BUFFER_RECT", "USER", "BARRIER", "MIGRATE_MEM_OBJECTS",
            "FILL_BUFFER", "FILL_IMAGE", "SVM_FREE", "SVM_MEMCPY", "SVM_MEMFILL", "SVM_MAP", "SVM_UNMAP"};
        for (int i = 0; i < names.length; i++) {
            COMMAND_TYPES.put(names[i], 0x11F0 + i);
        }
    }

    public static int commandType(String name) {
        return COMMAND_TYPES.get(name);
    }

    /**
     * The metadata text.
     *
     * @param clockOffsetNs wall-clock time (ns since 1970) at monotonic time 0, so viewers show real dates
     */
    public static String text(UUID uuid, long clockOffsetNs, Map<String, Object> env) {
        StringBuilder m = new StringBuilder(16384);
        m.append("/* CTF 1.8 */\n\n");
        m.append("""
                typealias integer { size = 8; align = 8; signed = false; } := u8;
                typealias integer { size = 16; align = 8; signed = false; } := u16;
                typealias integer { size = 32; align = 8; signed = false; } := u32;
                typealias integer { size = 32; align = 8; signed = true; } := s32;
                typealias integer { size = 64; align = 8; signed = false; } := u64;
                typealias integer { size = 64; align = 8; signed = true; } := s64;
                typealias integer { size = 64; align = 8; signed = false; base = 16; } := x64;
                typealias integer { size = 32; align = 8; signed = false; base = 16; } := x32;
                typealias integer { size = 32; align = 32; signed = false; } := a32;
                typealias integer { size = 64; align = 64; signed = false; } := a64;

                """);
        m.append("trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"").append(uuid).append("\";\n");
        m.append("""
                	byte_order = le;
                	packet.header := struct {
                		a32 magic;
                		u8 uuid[16];
                		a32 stream_id;
                		a64 stream_instance_id;
                	};
                };

                """);
        m.append("env {\n");
        env.forEach((k, v) -> {
            m.append('\t').append(k).append(" = ");
            if (v instanceof Number n) {
                m.append(n.longValue());
            } else {
                m.append('"').append(escape(String.valueOf(v))).append('"');
            }
            m.append(";\n");
        });
        m.append("};\n\n");
        m.append("clock {\n\tname = monotonic;\n\tuuid = \"").append(uuid).append("\";\n");
        m.append("\tdescription = \"JVM System.nanoTime (CLOCK_MONOTONIC on Linux)\";\n");
        m.append("\tfreq = 1000000000;\n\tprecision = 1;\n");
        m.append("\toffset_s = ").append(Math.floorDiv(clockOffsetNs, 1_000_000_000L)).append(";\n");
        m.append("\toffset = ").append(Math.floorMod(clockOffsetNs, 1_000_000_000L)).append(";\n");
        m.append("\tabsolute = false;\n};\n\n");
        m.append("typealias integer { size = 64; align = 64; signed = false; map = clock.monotonic.value; } := ts64;\n\n");

        m.append("""
                stream {
                	id = 0;
                	packet.context := struct {
                		ts64 timestamp_begin;
                		ts64 timestamp_end;
                		a64 content_size;
                		a64 packet_size;
                		a64 packet_seq_num;
                		a64 events_discarded;
                		a64 thread_id;
                	};
                	event.header := struct {
                		ts64 timestamp;
                		u16 id;
                	};
                };

                stream {
                	id = 1;
                	packet.context := struct {
                		ts64 timestamp_begin;
                		ts64 timestamp_end;
                		a64 content_size;
                		a64 packet_size;
                		a64 packet_seq_num;
                		a64 events_discarded;
                		a64 queue;
                		a64 device;
                	};
                	event.header := struct {
                		ts64 timestamp;
                		u16 id;
                	};
                };

                """);
        StringBuilder fn = new StringBuilder("enum : u16 {");
        for (int i = 0; i < ClFunctions.NAMES.size(); i++) {
            fn.append(i == 0 ? " " : ", ").append('"').append(ClFunctions.NAMES.get(i)).append("\" = ").append(i);
        }
        fn.append(", \"unknown\" = ").append(ClFunctions.UNKNOWN).append(" }");
        StringBuilder ct = new StringBuilder("enum : u16 {");
        boolean first = true;
        for (Map.Entry<String, Integer> e : COMMAND_TYPES.entrySet()) {
            ct.append(first ? " " : ", ").append('"').append(e.getKey()).append("\" = ").append(e.getValue());
            first = false;
        }
        ct.append(", \"UNKNOWN\" = 0 }");
        String dir = "enum : u8 { \"none\" = 0, \"HtoD\" = 1, \"DtoH\" = 2, \"DtoD\" = 3, \"fill\" = 4, \"map\" = 5, \"unmap\" = 6 }";

        event(m, 0, API_CALL, "api_call", "u64 seq; " + fn + " function; s32 result; u64 duration;");
        event(m, 0, THREAD, "thread", "string name; u64 java_id; u8 library;");
        event(m, 0, PLATFORM, "platform", "x64 platform; string name; string vendor; string version;");
        event(m, 0, DEVICE, "device", "x64 device; x64 platform; u64 type; string name; string vendor; "
                + "string version; string driver_version; u32 compute_units; u32 max_clock_mhz; "
                + "u64 global_mem_bytes; u64 local_mem_bytes; u64 max_alloc_bytes; u64 max_work_group_size; "
                + "u64 timer_resolution_ns;");
        event(m, 0, CONTEXT, "context", "u64 seq; x64 context; u32 n_devices; x64 devices[n_devices];");
        event(m, 0, QUEUE, "queue", "u64 seq; x64 queue; x64 context; x64 device; u64 requested_properties; "
                + "u64 properties; u8 profiling_forced;");
        event(m, 0, MEM_CREATE, "mem_create", "u64 seq; x64 mem; x64 context; u64 flags; u64 size; x64 parent; "
                + "u64 origin; x32 object_type; u32 element_bytes;");
        event(m, 0, MEM_RELEASE, "mem_release", "u64 seq; x64 mem; s32 references;");
        event(m, 0, MEM_RETAIN, "mem_retain", "u64 seq; x64 mem; s32 references;");
        event(m, 0, PROGRAM, "program", "u64 seq; x64 program; x64 context; u8 kind; u64 source_bytes;");
        event(m, 0, PROGRAM_BUILD, "program_build", "u64 seq; x64 program; u8 operation; x64 device; "
                + "s32 build_status; string options; string log;");
        event(m, 0, KERNEL, "kernel", "u64 seq; x64 kernel; x64 program; string name;");
        event(m, 0, KERNEL_ARG, "kernel_arg", "u64 seq; x64 kernel; u32 index; u64 size; "
                + "enum : u8 { \"local\" = 0, \"mem\" = 1, \"value\" = 2, \"other\" = 3 } kind; x64 value;");
        event(m, 0, ENQUEUE_KERNEL, "enqueue_kernel", "u64 seq; u64 command; x64 queue; x64 kernel; u32 work_dim; "
                + "u64 global_size[3]; u64 local_size[3]; u64 global_offset[3]; u32 wait_events;");
        event(m, 0, ENQUEUE_MEM, "enqueue_mem", "u64 seq; u64 command; x64 queue; " + ct + " command_type; "
                + dir + " direction; x64 src_mem; x64 dst_mem; u64 bytes; u64 src_offset; u64 dst_offset; "
                + "u8 blocking; u32 wait_events;");
        event(m, 0, ENQUEUE_OTHER, "enqueue_other", "u64 seq; u64 command; x64 queue; " + ct + " command_type; "
                + "u64 bytes; u32 wait_events;");
        event(m, 0, WAIT, "wait", "u64 seq; x64 queue; u32 n_commands; u64 commands[n_commands];");
        event(m, 1, COMMAND, "command", "u64 command; " + ct + " command_type; s32 status; u64 queued; "
                + "u64 submit; u64 start; u64 end;");
        return m.toString();
    }

    private static void event(StringBuilder m, int stream, int id, String name, String fields) {
        m.append("event {\n\tname = \"").append(name).append("\";\n\tid = ").append(id)
                .append(";\n\tstream_id = ").append(stream).append(";\n\tfields := struct { ")
                .append(fields).append(" };\n};\n\n");
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
    }
}
