package org.hetscope.formats.ctf;

/** Special meanings of header and context integers (CTF 1.8 by name and scope, CTF 2 by role). */
final class Role {
    static final int NONE = 0;
    static final int MAGIC = 1;
    static final int STREAM_CLASS_ID = 2;
    static final int STREAM_INSTANCE_ID = 3;
    static final int TS_BEGIN = 4;
    static final int TS_END = 5;
    static final int CONTENT_SIZE = 6;
    static final int PACKET_SIZE = 7;
    static final int DISCARDED = 8;
    static final int SEQ_NUM = 9;
    static final int EVENT_ID = 10;
    static final int TIMESTAMP = 11;
    static final int COUNT = 12;

    static int ofCtf2(String role) {
        if (role == null) {
            return NONE;
        }
        return switch (role) {
            case "packet-magic-number" -> MAGIC;
            case "data-stream-class-id" -> STREAM_CLASS_ID;
            case "data-stream-id" -> STREAM_INSTANCE_ID;
            case "default-clock-timestamp" -> TIMESTAMP;
            case "packet-end-default-clock-timestamp" -> TS_END;
            case "packet-content-length" -> CONTENT_SIZE;
            case "packet-total-length" -> PACKET_SIZE;
            case "discarded-event-record-counter-snapshot" -> DISCARDED;
            case "packet-sequence-number" -> SEQ_NUM;
            case "event-record-class-id" -> EVENT_ID;
            default -> NONE;
        };
    }

    private Role() {}
}
