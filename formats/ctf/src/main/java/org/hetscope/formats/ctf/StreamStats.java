package org.hetscope.formats.ctf;

import java.nio.file.Path;

/**
 * What one data stream file held: packets and events decoded, events the tracer reports as discarded (from the
 * packets' {@code events_discarded} counters) and packets lost (gaps in {@code packet_seq_num}).
 */
public record StreamStats(Path file, long streamClassId, long packets, long events, long discardedEvents,
                          long lostPackets) {}
