package org.hetscope.analysis.mining.folding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hetscope.analysis.mining.memtrace.SymbolTable;
import org.junit.jupiter.api.Test;

class PatternFoldingTest {
    private static final SymbolTable SYMBOLS = SymbolTable.of(
            List.of(new long[] {0x10008250L, 0x24}, new long[] {0x10009ee4L, -1}),
            List.of("cpu_mp_wait", "idct"));

    @Test
    void spinLoopPcsFoldIntoOneRange() {
        PatternFolding f = new PatternFolding(SYMBOLS, 4);
        assertEquals(List.of("[0x1000825c:0x10008268] cpu_mp_wait (4 of 4)"),
                f.fold(List.of("0x10008264", "0x1000825c", "0x10008268", "0x10008260")));
        assertEquals(List.of("[0x1000825c:0x10008268] cpu_mp_wait (3 of 4)"),
                f.fold(List.of("0x1000825c", "0x10008268", "0x10008260")));
    }

    @Test
    void cpuItemsFoldIntoRanges() {
        PatternFolding f = new PatternFolding(SYMBOLS, 4);
        assertEquals(List.of("CPU[0,3] lat_10_20"),
                f.fold(List.of("CPU0_lat_10_20", "CPU1_lat_10_20", "CPU2_lat_10_20", "CPU3_lat_10_20")));
        assertEquals(List.of("CPU_0, CPU_2 INST P_3085 fetch_process id_10"),
                f.fold(List.of("CPU0_INST P_3085 fetch_process id_10", "CPU2_INST P_3085 fetch_process id_10")));
        assertEquals(List.of("lat_20_30", "CPU[0,1] [0x1000825c:0x10008260] cpu_mp_wait (2 of 2)"),
                f.fold(List.of("CPU0_0x1000825c", "CPU1_0x1000825c", "CPU0_0x10008260", "CPU1_0x10008260",
                        "lat_20_30")));
    }
}
