package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

/**
 * Builds a small rocpd database from the documented v3 layout: one process, two threads, a CPU and a GPU agent,
 * three kernels dispatched {@link #DISPATCHES} times from hipLaunchKernel calls, host-to-device and
 * device-to-host copies from hipMemcpy calls, two counters per dispatch and a sampled counter track.
 */
final class RocpdTestDatabase {
    static final int DISPATCHES = 30;
    static final String[] KERNELS = {"vectorAdd(float*, float const*, int)", "reduce(float*, int)", "scale(float)"};

    private RocpdTestDatabase() {
    }

    static void create(Path file, long seed) throws IOException, SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath())) {
            c.setAutoCommit(false);
            SqliteTestFiles.runScript(c, "rocpd-v3-schema.sql");
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO rocpd_metadata_00ab(tag, value) VALUES ('schema_version', '3')");
                st.execute("INSERT INTO rocpd_info_node_00ab(id, hash, machine_id, hostname) VALUES (1, 7, 'm', 'h')");
                st.execute("INSERT INTO rocpd_info_process_00ab(id, nid, pid, command) VALUES (1, 1, 4242, "
                        + "'./vadd --n 1024')");
                st.execute("INSERT INTO rocpd_info_thread_00ab(id, nid, pid, tid, name) VALUES (1, 1, 1, 4242, 'main'),"
                        + " (2, 1, 1, 4250, 'worker')");
                st.execute("INSERT INTO rocpd_info_category_00ab(id, name) VALUES (1, 'HIP_RUNTIME_API'), "
                        + "(2, 'KERNEL_DISPATCH'), (3, 'MEMORY_COPY'), (4, 'MARKER_CORE_API')");
                st.execute("INSERT INTO rocpd_info_agent_00ab(id, nid, pid, type, type_index, name, product_name, "
                        + "vendor_name, extdata) VALUES (1, 1, 1, 'CPU', 0, 'cpu', 'EPYC', 'AMD', '{}'), "
                        + "(2, 1, 1, 'GPU', 0, 'gfx90a', 'AMD Instinct MI250X', 'AMD', "
                        + "'{\"wave_front_size\": 64, \"cu_count\": 110, \"max_engine_clk_fcompute\": 1700}')");
                st.execute("INSERT INTO rocpd_info_queue_00ab(id, nid, pid, name) VALUES (1, 1, 1, 'q0'), "
                        + "(2, 1, 1, 'q1')");
                st.execute("INSERT INTO rocpd_info_stream_00ab(id, nid, pid, name) VALUES (0, 1, 1, 'null')");
                st.execute("INSERT INTO rocpd_info_pmc_00ab(id, nid, pid, agent_id, name, symbol) VALUES "
                        + "(1, 1, 1, 2, 'SQ_WAVES', 'SQ_WAVES'), (2, 1, 1, 2, 'VALUUtilization', 'VALUUtilization'),"
                        + " (3, 1, 1, 2, 'GPU_UTIL', 'GPU_UTIL')");
                st.execute("INSERT INTO rocpd_info_kernel_symbol_00ab(id, nid, pid, code_object_id, kernel_name, "
                        + "display_name) VALUES (1, 1, 1, 1, 'k1.kd', '" + KERNELS[0] + "'), (2, 1, 1, 1, 'k2.kd', '"
                        + KERNELS[1] + "'), (3, 1, 1, 1, 'k3.kd', '" + KERNELS[2] + "')");
                st.execute("INSERT INTO rocpd_string_00ab(id, string) VALUES (1, 'hipLaunchKernel'), (2, 'hipMemcpy'),"
                        + " (3, 'MEMORY_COPY_HOST_TO_DEVICE'), (4, 'MEMORY_COPY_DEVICE_TO_HOST'), "
                        + "(5, 'hipDeviceSynchronize'), (6, 'roctxRangePush'), (7, 'GPU utilisation')");
                st.execute("INSERT INTO rocpd_track_00ab(id, nid, agent_id, name_id) VALUES (1, 1, 2, 7)");
            }
            Random rnd = new Random(seed);
            long t = 1_000_000;
            long event = 0;
            long corr = 0;
            try (PreparedStatement ev = c.prepareStatement("INSERT INTO rocpd_event_00ab(id, category_id, "
                    + "correlation_id) VALUES (?, ?, ?)");
                 PreparedStatement region = c.prepareStatement("INSERT INTO rocpd_region_00ab(nid, pid, tid, start, "
                         + "\"end\", name_id, event_id) VALUES (1, 1, ?, ?, ?, ?, ?)");
                 PreparedStatement kd = c.prepareStatement("INSERT INTO rocpd_kernel_dispatch_00ab(nid, pid, tid, "
                         + "agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, \"end\", "
                         + "group_segment_size, workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, "
                         + "grid_size_y, grid_size_z, event_id) VALUES (1, 1, ?, 2, ?, ?, ?, 0, ?, ?, 0, ?, 1, 1, ?, "
                         + "1, 1, ?)");
                 PreparedStatement mc = c.prepareStatement("INSERT INTO rocpd_memory_copy_00ab(nid, pid, tid, start, "
                         + "\"end\", name_id, dst_agent_id, src_agent_id, size, queue_id, stream_id, event_id) VALUES "
                         + "(1, 1, 1, ?, ?, ?, ?, ?, ?, 1, 0, ?)");
                 PreparedStatement pmc = c.prepareStatement("INSERT INTO rocpd_pmc_event_00ab(event_id, pmc_id, value)"
                         + " VALUES (?, ?, ?)");
                 PreparedStatement sample = c.prepareStatement("INSERT INTO rocpd_sample_00ab(track_id, timestamp, "
                         + "event_id) VALUES (1, ?, ?)")) {
                for (int i = 0; i < DISPATCHES; i++) {
                    int k = rnd.nextInt(KERNELS.length);
                    int thread = 1 + rnd.nextInt(2);
                    // host to device copy before each third launch
                    if (i % 3 == 0) {
                        corr++;
                        long apiEvent = ++event;
                        insertEvent(ev, apiEvent, 1, corr);
                        insertRegion(region, 1, t, t + 5000, 2, apiEvent);
                        long copyEvent = ++event;
                        insertEvent(ev, copyEvent, 3, corr);
                        mc.setLong(1, t + 1000);
                        mc.setLong(2, t + 4000);
                        mc.setLong(3, 3);
                        mc.setLong(4, 2);
                        mc.setLong(5, 1);
                        mc.setLong(6, 4096L * (1 + rnd.nextInt(8)));
                        mc.setLong(7, copyEvent);
                        mc.executeUpdate();
                        t += 6000;
                    }
                    corr++;
                    long apiEvent = ++event;
                    insertEvent(ev, apiEvent, 1, corr);
                    long launchEnd = t + 2000 + rnd.nextInt(1000);
                    insertRegion(region, thread, t, launchEnd, 1, apiEvent);
                    long kernelEvent = ++event;
                    insertEvent(ev, kernelEvent, 2, corr);
                    long start = launchEnd + 3000 + rnd.nextInt(5000);
                    long end = start + 10_000 + rnd.nextInt(50_000);
                    kd.setLong(1, thread);
                    kd.setLong(2, k + 1);
                    kd.setLong(3, i + 1);
                    kd.setLong(4, 1 + (i % 2));
                    kd.setLong(5, start);
                    kd.setLong(6, end);
                    kd.setLong(7, k == 1 ? 96 : 256);
                    kd.setLong(8, 1 << (10 + k));
                    kd.setLong(9, kernelEvent);
                    kd.executeUpdate();
                    insertPmc(pmc, kernelEvent, 1, 16 + rnd.nextInt(100));
                    insertPmc(pmc, kernelEvent, 2, 20 + rnd.nextInt(80));
                    long sampleEvent = ++event;
                    insertEvent(ev, sampleEvent, 2, 0);
                    insertPmc(pmc, sampleEvent, 3, rnd.nextInt(100));
                    sample.setLong(1, end);
                    sample.setLong(2, sampleEvent);
                    sample.executeUpdate();
                    t = end + 1000;
                }
                corr++;
                long apiEvent = ++event;
                insertEvent(ev, apiEvent, 1, corr);
                insertRegion(region, 1, t, t + 9000, 2, apiEvent);
                long copyEvent = ++event;
                insertEvent(ev, copyEvent, 3, corr);
                mc.setLong(1, t + 1000);
                mc.setLong(2, t + 8000);
                mc.setLong(3, 4);
                mc.setLong(4, 1);
                mc.setLong(5, 2);
                mc.setLong(6, 1 << 20);
                mc.setLong(7, copyEvent);
                mc.executeUpdate();
                long markerEvent = ++event;
                insertEvent(ev, markerEvent, 4, 0);
                insertRegion(region, 1, 500_000, t + 20_000, 6, markerEvent);
            }
            c.commit();
        }
    }

    private static void insertEvent(PreparedStatement ev, long id, long category, long corr) throws SQLException {
        ev.setLong(1, id);
        ev.setLong(2, category);
        ev.setLong(3, corr);
        ev.executeUpdate();
    }

    private static void insertRegion(PreparedStatement r, long tid, long start, long end, long name, long event)
            throws SQLException {
        r.setLong(1, tid);
        r.setLong(2, start);
        r.setLong(3, end);
        r.setLong(4, name);
        r.setLong(5, event);
        r.executeUpdate();
    }

    private static void insertPmc(PreparedStatement p, long event, long pmc, double value) throws SQLException {
        p.setLong(1, event);
        p.setLong(2, pmc);
        p.setDouble(3, value);
        p.executeUpdate();
    }
}
