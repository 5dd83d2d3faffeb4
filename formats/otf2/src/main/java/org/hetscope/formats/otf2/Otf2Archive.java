package org.hetscope.formats.otf2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.TraceFormatException;

/**
 * An OTF2 archive read completely into memory: the anchor file, the global definitions, each location's local
 * definitions (id mappings, clock offsets) and its events. Every file is decoded before anything is handed on,
 * so a damaged or incomplete archive is refused as a whole.
 */
public final class Otf2Archive {
    private static final byte[] MAGIC = {'O', 'T', 'F', '2', 0};

    final Path anchor;
    String version;
    String creator;
    long eventChunkSize;
    long defChunkSize;
    long locationCount;
    Otf2Definitions defs;
    final Map<Long, List<Otf2Event>> events = new LinkedHashMap<>();
    /** Event records that were decoded but are not used, by record type. */
    final Map<Integer, Long> skippedRecords = new HashMap<>();

    private Otf2Archive(Path anchor) {
        this.anchor = anchor;
    }

    public String version() {
        return version;
    }

    public String creator() {
        return creator;
    }

    public long timerResolution() {
        return defs.timerResolution;
    }

    public long globalOffset() {
        return defs.globalOffset;
    }

    /** Location ids in definition order. */
    public List<Long> locations() {
        return new ArrayList<>(defs.locations.keySet());
    }

    public String locationName(long location) {
        Otf2Definitions.Location l = defs.locations.get(location);
        return l == null ? null : l.name();
    }

    public String regionName(long region) {
        Otf2Definitions.Region r = defs.regions.get(region);
        return r == null ? "region " + region : r.name();
    }

    public List<Otf2Event> events(long location) {
        return events.getOrDefault(location, List.of());
    }

    static boolean isAnchor(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        byte[] head = new byte[7];
        try (var in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, 7) != 7) {
                return false;
            }
        }
        if (head[0] != Otf2Records.CHUNK_HEADER || (head[1] != 0x42 && head[1] != 0x23)) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (head[2 + i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** Reads the archive whose anchor file is {@code anchor} (e.g. {@code traces.otf2}). */
    public static Otf2Archive read(Path anchor) throws IOException, TraceFormatException {
        Otf2Archive a = new Otf2Archive(anchor);
        a.readAnchor();
        String base = anchor.getFileName().toString();
        base = base.endsWith(".otf2") ? base.substring(0, base.length() - 5) : base;
        Path globalDefs = anchor.resolveSibling(base + ".def");
        Path dir = anchor.resolveSibling(base);
        a.defs = Otf2Definitions.read(new Otf2Buffer(globalDefs, bytes(anchor, globalDefs)), a.defChunkSize);
        if (a.locationCount > 0 && a.defs.locations.size() != a.locationCount) {
            throw new TraceFormatException(globalDefs, "end of file", "the anchor announces " + a.locationCount
                    + " locations but the global definitions define " + a.defs.locations.size());
        }
        // check that every event file is there before decoding any of them
        for (long loc : a.defs.locations.keySet()) {
            Path evt = dir.resolve(loc + ".evt");
            if (!Files.isRegularFile(evt) && a.defs.locations.get(loc).events() > 0) {
                throw new TraceFormatException(evt, "", "event file of location " + loc + " ("
                        + a.defs.locations.get(loc).name() + ", " + a.defs.locations.get(loc).events()
                        + " events announced) is missing from the archive");
            }
        }
        for (long loc : a.defs.locations.keySet()) {
            Path evt = dir.resolve(loc + ".evt");
            if (!Files.isRegularFile(evt)) {
                a.events.put(loc, List.of());
                continue;
            }
            Path def = dir.resolve(loc + ".def");
            Otf2LocalDefinitions local = Files.isRegularFile(def)
                    ? Otf2LocalDefinitions.read(new Otf2Buffer(def, bytes(anchor, def)), a.defChunkSize)
                    : new Otf2LocalDefinitions();
            a.events.put(loc, a.readEvents(loc, new Otf2Buffer(evt, bytes(anchor, evt)), local));
        }
        return a;
    }

    private static byte[] bytes(Path anchor, Path file) throws IOException, TraceFormatException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file, "", "file of the OTF2 archive " + anchor + " is missing");
        }
    }

    private void readAnchor() throws IOException, TraceFormatException {
        Otf2Buffer b = new Otf2Buffer(anchor, Files.readAllBytes(anchor));
        if (!isAnchor(anchor)) {
            throw b.error("not an OTF2 anchor file (no 'OTF2' signature)");
        }
        b.pos = 1;
        b.setByteOrder(b.u8());
        b.string(); // "OTF2"
        b.u8(); // anchor file layout version
        b.u8(); // trace format version
        version = b.u8() + "." + b.u8() + "." + b.u8();
        eventChunkSize = b.u64full();
        defChunkSize = b.u64full();
        int substrate = b.u8();
        int compression = b.u8();
        if (compression != 0 && compression != 1) {
            throw b.error("compressed OTF2 archives (compression " + compression + ") are not supported");
        }
        locationCount = b.u64full();
        b.u64full(); // number of global definitions
        b.string(); // machine name
        creator = b.string();
        if (substrate != 1 && substrate != 0) {
            throw b.error("OTF2 file substrate " + substrate + " (SION or other) is not supported; only POSIX files");
        }
    }

    private List<Otf2Event> readEvents(long location, Otf2Buffer buf, Otf2LocalDefinitions local)
            throws TraceFormatException {
        Otf2Records r = new Otf2Records(buf, true, eventChunkSize);
        List<Otf2Event> out = new ArrayList<>();
        while (r.next()) {
            long t = local.correct(r.time);
            switch (r.type) {
                case 12, 13 -> {
                    long region = local.map(Otf2LocalDefinitions.REGION, buf.u32());
                    out.add(new Otf2Event(r.type == 12 ? Otf2Event.Kind.ENTER : Otf2Event.Kind.LEAVE, location, t,
                            region, 0, 0, 0, null));
                }
                case 14, 15, 18, 19 -> {
                    long peer = buf.u32();
                    long comm = local.map(Otf2LocalDefinitions.COMM, buf.u32());
                    long tag = buf.u32();
                    long bytes = buf.u64();
                    Otf2Event.Kind kind = switch (r.type) {
                        case 14 -> Otf2Event.Kind.MPI_SEND;
                        case 15 -> Otf2Event.Kind.MPI_ISEND;
                        case 18 -> Otf2Event.Kind.MPI_RECV;
                        default -> Otf2Event.Kind.MPI_IRECV;
                    };
                    Long peerLocation = defs.locationOfRank(comm, peer);
                    out.add(new Otf2Event(kind, location, t, comm, peerLocation == null ? -1 : peerLocation, tag,
                            bytes, null));
                }
                case 31 -> {
                    long metric = local.map(Otf2LocalDefinitions.METRIC, buf.u32());
                    int n = buf.u8();
                    int[] types = new int[n];
                    for (int i = 0; i < n; i++) {
                        types[i] = buf.u8();
                    }
                    double[] values = new double[n];
                    for (int i = 0; i < n; i++) {
                        long raw = buf.u64();
                        values[i] = switch (types[i]) {
                            case 8 -> (double) raw; // INT64
                            case 10 -> Double.longBitsToDouble(raw); // DOUBLE
                            default -> raw < 0 ? (double) (raw >>> 1) * 2.0 : (double) raw; // UINT64
                        };
                    }
                    out.add(new Otf2Event(Otf2Event.Kind.METRIC, location, t, metric, 0, 0, 0, values));
                }
                case 83 -> out.add(new Otf2Event(Otf2Event.Kind.PROGRAM_BEGIN, location, t, 0, 0, 0, 0, null));
                case 84 -> out.add(new Otf2Event(Otf2Event.Kind.PROGRAM_END, location, t, 0, 0, 0, 0, null));
                default -> {
                    skippedRecords.merge(r.type, 1L, Long::sum);
                    if (r.end < 0) {
                        buf.u64(); // singleton: one compressed integer
                    }
                }
            }
            r.finish();
        }
        return out;
    }
}
