package org.hetscope.formats.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.hetscope.formats.rocpd.rocprof.RocprofCsv;
import org.hetscope.formats.rocpd.rocprof.RocprofCsvFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rocprof v1/v2 results.csv: quoted kernel names with commas, counters, timestamps, bad lines. */
class RocprofCsvTest {
    static final String HEADER = "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
            + "accum_vgpr,sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,SQ_WAVES,VALUUtilization";

    @Test
    void readsDispatchesAndCounters(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("results.csv");
        Files.writeString(f, HEADER + "\n"
                + "0,\"needle_cuda_shared_1(int*, int*, int, int, int, int) [clone .kd]\",1,0,0,77,77,4096,32,"
                + "8448,0,24,0,16,64,\"0x0\",\"0x7f\",100,200,1200,1300,64.0,38.0\n"
                + "1,\"needle_cuda_shared_2(int*, int*, int, int, int, int) [clone .kd]\",1,0,1,77,77,4096,32,"
                + "8448,0,24,0,16,64,\"0x0\",\"0x7f\",1400,1500,2600,2700,64.0,37.5\n");
        List<RocprofCsv.Dispatch> d = RocprofCsv.read(f);
        assertEquals(2, d.size());
        assertEquals("needle_cuda_shared_1(int*, int*, int, int, int, int)", RocprofCsv.baseName(d.get(0).kernelName()));
        assertEquals(List.of("SQ_WAVES", "VALUUtilization"), List.copyOf(d.get(0).counters().keySet()));
        assertEquals(38.0, d.get(0).counters().get("VALUUtilization"));
        assertEquals(32L, d.get(1).workgroup());
        CollectingSink s = new CollectingSink();
        RocprofCsvFormat fmt = new RocprofCsvFormat();
        assertTrue(fmt.accepts(f));
        fmt.read(f, s, Progress.NONE);
        assertEquals(2, s.slices.size());
        assertEquals(1000, s.slices.get(0).dur());
        assertEquals(4, s.kernelCounters.size());
        assertEquals(64, s.devices.get(0).warpSize());
    }

    @Test
    void badLinesAreRefusedWithTheLineNumber(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("results.csv");
        Files.writeString(f, HEADER + "\n0,\"k\",1,0,0,1,1,1,1,0,0,1,0,1,64,\"0\",\"0\",1,2,3,4,5.0\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> RocprofCsv.read(f));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        Path g = dir.resolve("nots.csv");
        Files.writeString(g, "Index,KernelName,gpu-id,queue-id,grd,wgr,SQ_WAVES\n0,k,1,0,64,64,4\n");
    }

    @Test
    void withoutTimestampsTheDispatchesBecomeRowsToJoin(@TempDir Path dir) throws Exception {
        Path g = dir.resolve("nots.csv");
        Files.writeString(g, "Index,KernelName,gpu-id,queue-id,grd,wgr,SQ_WAVES,FLOPS\n"
                + "0,\"k(int) [clone .kd]\",1,0,64,64,4,\n3,k2.kd,1,2,64,64,5,6.5\n");
        CollectingSink s = new CollectingSink();
        new RocprofCsvFormat().read(g, s, Progress.NONE);
        assertTrue(s.slices.isEmpty());
        List<Object[]> d = s.extraRows.get(RocprofCsvFormat.DISPATCH_TABLE);
        assertEquals(2, d.size());
        assertEquals(List.of(2L, 0L, "k(int)", "k(int) [clone .kd]", 1, 0L), Arrays.asList(d.get(0)).subList(0, 6));
        assertEquals(List.of(3L, 3L, "k2", "k2.kd", 1, 2L), Arrays.asList(d.get(1)).subList(0, 6));
        assertEquals(null, d.get(1)[6]);
        List<String> counters = s.extraRows.get(RocprofCsvFormat.COUNTER_TABLE).stream()
                .map(r -> r[0] + ":" + r[1] + ":" + r[2] + "=" + r[3]).toList();
        // the empty FLOPS of line 2 is no value, not 0
        assertEquals(List.of("2:0:SQ_WAVES=4.0", "3:0:SQ_WAVES=5.0", "3:1:FLOPS=6.5"), counters);
    }
}
