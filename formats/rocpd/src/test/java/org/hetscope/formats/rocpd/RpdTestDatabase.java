package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Builds a small RPD database (rocmProfileData's rpd_tracer layout) from the documented schema: one process with two
 * threads driving two GPUs; hipLaunchKernel calls with their rocpd_kernelapi rows and KernelExecution ops, copies
 * of every direction (synchronous, asynchronous, peer, 2-D), fills without a byte count, calls without ops, user
 * ranges, an op linked to a call missing from rocpd_api, an unlinked marker op, and sclk samples. Ids carry the
 * per-session offset (session 1: 2^32) that rpd_tracer adds. With {@code newer}, rocpd_api has the later
 * {@code domain_id}/{@code category_id} columns and call arguments live in {@code rocpd_ustring}.
 */
final class RpdTestDatabase {
    static final long BASE = 1L << 32;
    static final int CALLS = 60;
    static final String[] KERNELS = {"void vecAdd<float>(float*, float const*, int)", "reduce_sum(double*, int)",
        "Cijk_Ailk_Bljk_SB_MT64x64x8"};

    private final Connection c;
    private final boolean newer;
    private final Map<String, Long> strings = new LinkedHashMap<>();
    private long nextString = BASE;
    private long nextUString = BASE;
    private long nextApi = BASE + 100;
    private long nextOp = BASE;
    private PreparedStatement api;
    private PreparedStatement op;
    private PreparedStatement link;
    private PreparedStatement kernel;
    private PreparedStatement copy;
    private PreparedStatement ustring;
    private PreparedStatement string;

    private RpdTestDatabase(Connection c, boolean newer) {
        this.c = c;
        this.newer = newer;
    }

    static void create(Path file, long seed, boolean newer) throws IOException, SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath())) {
            c.setAutoCommit(false);
            new RpdTestDatabase(c, newer).fill(new Random(seed));
            c.commit();
        }
    }

    private void fill(Random rnd) throws IOException, SQLException {
        SqliteTestFiles.runScript(c, "rpd-schema.sql");
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE \"rocpd_api\" (\"id\" integer NOT NULL PRIMARY KEY AUTOINCREMENT, \"pid\" integer "
                    + "NOT NULL, \"tid\" integer NOT NULL, \"start\" integer NOT NULL, \"end\" integer NOT NULL, "
                    + "\"apiName_id\" integer NOT NULL, " + (newer ? "\"category_id\" bigint NOT NULL, \"domain_id\" "
                    + "bigint NOT NULL, " : "") + "\"args_id\" integer NOT NULL)");
            String args = newer ? "rocpd_ustring" : "rocpd_string";
            if (newer) {
                st.execute("CREATE TABLE \"rocpd_ustring\" (\"id\" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "
                        + "\"string\" varchar(4096) NOT NULL)");
            }
            st.execute("CREATE VIEW api AS SELECT rocpd_api.id, pid, tid, start, \"end\", a.string AS apiName, "
                    + "b.string AS args FROM rocpd_api JOIN rocpd_string a ON a.id = rocpd_api.apiName_id JOIN "
                    + args + " b ON b.id = rocpd_api.args_id");
            st.execute("CREATE VIEW copy AS SELECT a.id, pid, tid, start, \"end\", s.string AS apiName, stream, size, "
                    + "width, height, kind, dst, src, dstDevice, srcDevice, sync, pinned FROM rocpd_copyapi k JOIN "
                    + "rocpd_api a ON a.id = k.api_ptr_id JOIN rocpd_string s ON s.id = a.apiName_id");
            st.execute("INSERT INTO rocpd_metadata(tag, value) VALUES ('schema_version', '2'), ('session_id', '1')");
            st.execute("INSERT INTO rocpd_kernelcodeobject(id, vgpr, sgpr, fbar) VALUES (" + (BASE + 1)
                    + ", 32, 24, 0)");
        }
        string = c.prepareStatement("INSERT INTO rocpd_string(id, string) VALUES (?, ?)");
        ustring = newer ? c.prepareStatement("INSERT INTO rocpd_ustring(id, string) VALUES (?, ?)") : null;
        api = c.prepareStatement(newer
                ? "INSERT INTO rocpd_api(id, pid, tid, start, \"end\", apiName_id, category_id, domain_id, args_id) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                : "INSERT INTO rocpd_api(id, pid, tid, start, \"end\", apiName_id, args_id) VALUES (?, ?, ?, ?, ?, ?, ?)");
        op = c.prepareStatement("INSERT INTO rocpd_op(id, gpuId, queueId, sequenceId, completionSignal, start, \"end\", "
                + "description_id, opType_id) VALUES (?, ?, ?, 0, '', ?, ?, ?, ?)");
        link = c.prepareStatement("INSERT INTO rocpd_api_ops(api_id, op_id) VALUES (?, ?)");
        kernel = c.prepareStatement("INSERT INTO rocpd_kernelapi(api_ptr_id, stream, gridX, gridY, gridZ, workgroupX, "
                + "workgroupY, workgroupZ, groupSegmentSize, privateSegmentSize, kernelArgAddress, aquireFence, "
                + "releaseFence, codeObject_id, kernelName_id) VALUES (?, ?, ?, ?, 1, ?, 1, 1, ?, 0, '', '', '', ?, ?)");
        copy = c.prepareStatement("INSERT INTO rocpd_copyapi(api_ptr_id, stream, size, width, height, kind, dst, src, "
                + "dstDevice, srcDevice, sync, pinned) VALUES (?, ?, ?, ?, ?, ?, '0x7f0000001000', '0x7f0000002000', ?, "
                + "?, ?, 0)");
        str(""); // rpd_tracer's first string: the empty one, used for "no description"
        if (newer) {
            ustr("");
        }
        long t = 5_000_000_000L;
        long outerStart = t - 1000;
        int calls = 0;
        for (int i = 0; i < CALLS; i++) {
            long tid = rnd.nextBoolean() ? 777 : 781;
            int gpu = rnd.nextInt(2);
            int queue = rnd.nextInt(2);
            int what = i < 8 ? i : rnd.nextInt(8);
            long callEnd = t + 2_000 + rnd.nextInt(3_000);
            long opStart = callEnd + 1_000 + rnd.nextInt(4_000);
            long opEnd = opStart + 5_000 + rnd.nextInt(40_000);
            switch (what) {
                case 0, 1, 2 -> {
                    int k = rnd.nextInt(KERNELS.length);
                    long a = api(tid, t, callEnd, "hipLaunchKernel", "");
                    kernel.setLong(1, a);
                    kernel.setString(2, rnd.nextBoolean() ? "0x0" : "0x5581c2f0");
                    kernel.setLong(3, 1L << (k + 4));
                    kernel.setLong(4, k + 1);
                    kernel.setLong(5, 64L << k);
                    kernel.setLong(6, k == 1 ? 1024 : 0);
                    kernel.setLong(7, k == 2 ? BASE + 1 : 0);
                    kernel.setLong(8, str(KERNELS[k]));
                    kernel.executeUpdate();
                    // one in four ops leaves the description empty: the name then comes from rocpd_kernelapi
                    op(a, gpu, queue, opStart, opEnd, rnd.nextInt(4) == 0 ? "" : KERNELS[k], "KernelExecution");
                }
                case 3 -> {
                    long a = api(tid, t, opEnd + 500, "hipMemcpy", "");
                    copy(a, "0x0", 4096L * (1 + rnd.nextInt(16)), 0, 0, 1, 0, 0, 1);
                    op(a, gpu, queue, opStart, opEnd, "", "CopyHostToDevice");
                }
                case 4 -> {
                    long a = api(tid, t, callEnd, "hipMemcpyAsync", "");
                    copy(a, "0x5581c2f0", 512L * (1 + rnd.nextInt(64)), 0, 0, 2, 0, 0, 0);
                    op(a, gpu, queue, opStart, opEnd, "", "CopyDeviceToHost");
                }
                case 5 -> {
                    long a = api(tid, t, callEnd, "hipMemcpyPeerAsync", "");
                    copy(a, "0x5581c2f0", 1L << (16 + rnd.nextInt(4)), 0, 0, 0, 1, 0, 0);
                    op(a, 0, queue, opStart, opEnd, "", "CopyDeviceToDevice");
                }
                case 6 -> {
                    long a = api(tid, t, opEnd + 500, "hipMemcpy2D", "");
                    copy(a, "0x0", 0, 256, 1 + rnd.nextInt(32), 1, 0, 0, 1);
                    op(a, gpu, queue, opStart, opEnd, "", "CopyHostToDevice2D");
                }
                default -> {
                    long a = api(tid, t, callEnd, "hipMemsetAsync", "");
                    op(a, gpu, queue, opStart, opEnd, "", "FillBuffer");
                    api(tid, callEnd + 100, opEnd + 300, "hipDeviceSynchronize", "");
                }
            }
            calls++;
            t = opEnd + 2_000;
        }
        // a device-to-device copy within one GPU
        long a = api(777, t, t + 30_000, "hipMemcpy", "");
        copy(a, "0x0", 1 << 20, 0, 0, 3, 1, 1, 1);
        op(a, 1, 0, t + 2_000, t + 25_000, "", "CopyDeviceToDevice");
        t += 40_000;
        api(777, t, t + 3_000, "hipMalloc", "ptr=0x7f5500000000 | size=0x100000");
        // an op whose call was filtered out of rocpd_api, and an op no call caused
        op(nextApi + 1_000_000, 0, 0, t + 4_000, t + 9_000, "", "CopyDeviceToHost");
        op(null, 1, 1, t + 4_000, t + 4_500, "", "Marker");
        // user ranges: rpd_tracer's roctx source files the message as the args of a UserMarker call
        api(777, outerStart, t + 10_000, "UserMarker", "training loop");
        api(781, outerStart + 500, outerStart + 100_000, "UserMarker", "warm-up");
        try (PreparedStatement m = c.prepareStatement("INSERT INTO rocpd_monitor(deviceType, deviceId, monitorType, "
                + "start, \"end\", value) VALUES ('gpu', ?, 'sclk', ?, ?, ?)")) {
            for (int i = 0; i < 10; i++) {
                m.setLong(1, i % 2);
                m.setLong(2, outerStart + i * 50_000L);
                m.setLong(3, outerStart + (i + 2) * 50_000L);
                m.setString(4, i == 7 ? "N/A" : Integer.toString(800 + 100 * i));
                m.executeUpdate();
            }
        }
        for (PreparedStatement p : new PreparedStatement[] {string, ustring, api, op, link, kernel, copy}) {
            if (p != null) {
                p.close();
            }
        }
    }

    private long str(String s) throws SQLException {
        Long id = strings.get(s);
        if (id == null) {
            id = ++nextString;
            string.setLong(1, id);
            string.setString(2, s);
            string.executeUpdate();
            strings.put(s, id);
        }
        return id;
    }

    private long ustr(String s) throws SQLException {
        ustring.setLong(1, ++nextUString);
        ustring.setString(2, s);
        ustring.executeUpdate();
        return nextUString;
    }

    private long api(long tid, long start, long end, String name, String args) throws SQLException {
        long id = ++nextApi;
        int i = 1;
        api.setLong(i++, id);
        api.setLong(i++, 777);
        api.setLong(i++, tid);
        api.setLong(i++, start);
        api.setLong(i++, end);
        api.setLong(i++, str(name));
        if (newer) {
            api.setLong(i++, str(""));
            api.setLong(i++, str(name.startsWith("hip") ? "hip" : "roctx"));
            api.setLong(i, args.isEmpty() ? BASE + 1 : ustr(args));
        } else {
            api.setLong(i, str(args));
        }
        api.executeUpdate();
        return id;
    }

    private void op(Long apiId, int gpu, int queue, long start, long end, String description, String type)
            throws SQLException {
        long id = ++nextOp;
        op.setLong(1, id);
        op.setLong(2, gpu);
        op.setLong(3, queue);
        op.setLong(4, start);
        op.setLong(5, end);
        op.setLong(6, str(description));
        op.setLong(7, str(type));
        op.executeUpdate();
        if (apiId != null) {
            link.setLong(1, apiId);
            link.setLong(2, id);
            link.executeUpdate();
        }
    }

    private void copy(long apiId, String stream, long size, long width, long height, int kind, int dstDevice,
                      int srcDevice, int sync) throws SQLException {
        copy.setLong(1, apiId);
        copy.setString(2, stream);
        copy.setLong(3, size);
        copy.setLong(4, width);
        copy.setLong(5, height);
        copy.setLong(6, kind);
        copy.setLong(7, dstDevice);
        copy.setLong(8, srcDevice);
        copy.setLong(9, sync);
        copy.executeUpdate();
    }
}
