package org.hetscope.formats.otf2;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.TraceFormatException;

/** The global definitions of an OTF2 archive that hetscope uses: names, regions, locations, groups, metrics. */
final class Otf2Definitions {
    /** A code region (function, MPI call, CUDA API call, kernel). */
    record Region(long id, String name, String canonicalName, int role, int paradigm, String sourceFile) {}

    /** A location: a thread, a GPU stream or a metric recorder. */
    record Location(long id, String name, int type, long events, long group) {}

    record LocationGroup(long id, String name, int type, long parent) {}

    record Group(long id, String name, int type, int paradigm, List<Long> members) {}

    record Comm(long id, String name, long group) {}

    record MetricMember(long id, String name, String unit, int valueType, int mode) {}

    static final int LOCATION_CPU_THREAD = 1;
    static final int LOCATION_ACCELERATOR_STREAM = 2;
    static final int LOCATION_METRIC = 3;
    static final int GROUP_COMM_LOCATIONS = 4;
    static final int GROUP_COMM_GROUP = 5;

    long timerResolution = 1_000_000_000L;
    long globalOffset;
    long traceLength;
    final Map<Long, String> strings = new HashMap<>();
    final Map<Long, Region> regions = new HashMap<>();
    final Map<Long, Location> locations = new LinkedHashMap<>();
    final Map<Long, LocationGroup> locationGroups = new LinkedHashMap<>();
    final Map<Long, Group> groups = new HashMap<>();
    final Map<Long, Comm> comms = new HashMap<>();
    final Map<Long, MetricMember> metricMembers = new HashMap<>();
    /** Metric class or instance id to its members, in value order. */
    final Map<Long, List<Long>> metricClasses = new HashMap<>();
    final Map<Integer, String> paradigms = new HashMap<>();
    final Map<Integer, Long> recordCounts = new HashMap<>();

    String string(long id) {
        return strings.get(id);
    }

    static Otf2Definitions read(Otf2Buffer buf, long chunkSize) throws TraceFormatException {
        Otf2Definitions d = new Otf2Definitions();
        Otf2Records r = new Otf2Records(buf, false, chunkSize);
        // names are resolved after reading: OTF2 allows references to strings defined later
        List<long[]> regionRefs = new ArrayList<>();
        while (r.next()) {
            d.recordCounts.merge(r.type, 1L, Long::sum);
            switch (r.type) {
                case 5 -> {
                    d.timerResolution = buf.u64();
                    d.globalOffset = buf.u64();
                    d.traceLength = buf.u64();
                }
                case 6 -> {
                    int paradigm = buf.u8();
                    long name = buf.u32();
                    d.paradigms.put(paradigm, "#" + name);
                }
                case 10 -> {
                    long id = buf.u32();
                    d.strings.put(id, buf.string());
                }
                case 13 -> {
                    long id = buf.u32();
                    long name = buf.u32();
                    int type = buf.u8();
                    long parent = buf.u32();
                    d.locationGroups.put(id, new LocationGroup(id, "#" + name, type, parent));
                }
                case 14 -> {
                    long id = buf.u64();
                    long name = buf.u32();
                    int type = buf.u8();
                    long events = buf.u64();
                    long group = buf.u32();
                    d.locations.put(id, new Location(id, "#" + name, type, events, group));
                }
                case 15 -> {
                    // OTF2 appends fields added after 1.0 at the end of the record
                    long id = buf.u32();
                    long name = buf.u32();
                    buf.u32(); // description
                    buf.u8(); // region type of OTF2 1.x
                    long file = buf.u32();
                    buf.u32(); // begin line
                    buf.u32(); // end line
                    long canonical = r.more() ? buf.u32() : name;
                    int role = r.more() ? buf.u8() : 0;
                    int paradigm = r.more() ? buf.u8() : 0;
                    regionRefs.add(new long[] {id, name, canonical, role, paradigm, file});
                }
                case 18 -> {
                    long id = buf.u32();
                    long name = buf.u32();
                    int oldType = buf.u8(); // group type of OTF2 1.x
                    long n = buf.u32();
                    List<Long> members = new ArrayList<>();
                    for (long i = 0; i < n; i++) {
                        members.add(buf.u64());
                    }
                    int type = r.more() ? buf.u8() : oldType;
                    int paradigm = r.more() ? buf.u8() : 0;
                    d.groups.put(id, new Group(id, "#" + name, type, paradigm, members));
                }
                case 19 -> {
                    long id = buf.u32();
                    long name = buf.u32();
                    buf.u32(); // description
                    buf.u8(); // metric type
                    int mode = buf.u8();
                    int valueType = buf.u8();
                    buf.u8(); // base
                    buf.i64(); // exponent
                    long unit = buf.u32();
                    d.metricMembers.put(id, new MetricMember(id, "#" + name, "#" + unit, valueType, mode));
                }
                case 20 -> {
                    long id = buf.u32();
                    int n = buf.u8();
                    List<Long> members = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        members.add(buf.u32());
                    }
                    d.metricClasses.put(id, members);
                }
                case 21 -> {
                    long id = buf.u32();
                    long metricClass = buf.u32();
                    d.metricClasses.put(id, d.metricClasses.getOrDefault(metricClass, List.of()));
                }
                case 22 -> {
                    long id = buf.u32();
                    long name = buf.u32();
                    long group = buf.u32();
                    d.comms.put(id, new Comm(id, "#" + name, group));
                }
                default -> {
                    // definitions hetscope does not use (system tree, attributes, cartesian topologies, ...)
                }
            }
            r.finish();
        }
        d.resolveNames(regionRefs);
        return d;
    }

    private String named(String ref) {
        if (ref.startsWith("#")) {
            String s = strings.get(Long.parseLong(ref.substring(1)));
            return s;
        }
        return ref;
    }

    private void resolveNames(List<long[]> regionRefs) {
        for (long[] r : regionRefs) {
            regions.put(r[0], new Region(r[0], strings.getOrDefault(r[1], "region " + r[0]), strings.get(r[2]),
                    (int) r[3], (int) r[4], r[5] < 0 ? null : strings.get(r[5])));
        }
        locations.replaceAll((k, l) -> new Location(l.id(), named(l.name()), l.type(), l.events(), l.group()));
        locationGroups.replaceAll((k, g) -> new LocationGroup(g.id(), named(g.name()), g.type(), g.parent()));
        groups.replaceAll((k, g) -> new Group(g.id(), named(g.name()), g.type(), g.paradigm(), g.members()));
        comms.replaceAll((k, c) -> new Comm(c.id(), named(c.name()), c.group()));
        metricMembers.replaceAll((k, m) -> new MetricMember(m.id(), named(m.name()), named(m.unit()), m.valueType(),
                m.mode()));
        paradigms.replaceAll((k, p) -> named(p));
    }

    /** The location that has rank {@code rank} in communicator {@code comm}, or null. */
    Long locationOfRank(long comm, long rank) {
        Comm c = comms.get(comm);
        if (c == null) {
            return null;
        }
        Group g = groups.get(c.group());
        if (g == null || rank < 0 || rank >= g.members().size()) {
            return null;
        }
        long member = g.members().get((int) rank);
        if (g.type() == GROUP_COMM_LOCATIONS) {
            return member;
        }
        // a communicator group holds ranks of the paradigm's COMM_LOCATIONS group
        for (Group all : groups.values()) {
            if (all.type() == GROUP_COMM_LOCATIONS && all.paradigm() == g.paradigm()
                    && member < all.members().size()) {
                return all.members().get((int) member);
            }
        }
        return null;
    }
}
