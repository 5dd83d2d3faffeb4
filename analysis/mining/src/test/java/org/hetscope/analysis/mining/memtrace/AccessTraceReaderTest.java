package org.hetscope.analysis.mining.memtrace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessTraceReaderTest {
    @Test
    void table21RowsMergeByTimeThenCpu(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.txt");
        Files.writeString(f, "# CPU cycle PC type address latency\n"
                + "1 212333 0x10009d60 load 0x10001a40 52\n"
                + "1 212305 0x10009d60 fetch 0x10009d60 28\n"
                + "2 212310 0x10009d60 load 0x10001a40 40\n");
        List<AccessTraceReader.Report> reports = new ArrayList<>();
        List<AccessEvent> et = new AccessTraceReader(null, true).read(f, reports);
        assertEquals(List.of(212305L, 212310L, 212333L), et.stream().map(AccessEvent::t).toList());
        assertEquals(AccessEvent.of(1, 212305, 0x10009d60L, AccessType.INST, 0x10009d60L, 28), et.get(0));
        assertEquals(TraceLayout.RAW, reports.get(0).layout());
    }

    @Test
    void table51AndA1Rows(@TempDir Path dir) throws Exception {
        Path noc = dir.resolve("noc.txt");
        Files.writeString(noc, "cycle cpu type page pc hops node latency\n212305 1 INST 785408 0xbfc00740 3 10 48\n");
        AccessEvent e = new AccessTraceReader(null, true).read(noc, null).get(0);
        assertEquals(new AccessEvent(1, 212305, 0xbfc00740L, AccessType.INST, null, 785408L, 3, 10, 48, null), e);
        Path a1 = dir.resolve("a1.txt");
        Files.writeString(a1, "1 212305 0x10008260 fetch 0x10008260 28 cpu_mp_wait\n");
        assertEquals("cpu_mp_wait", new AccessTraceReader(null, true).read(a1, null).get(0).function());
    }

    @Test
    void nmSymbolisationOfFigA1(@TempDir Path dir) throws Exception {
        Path nm = dir.resolve("nm.txt");
        Files.writeString(nm, "         U puts\n10008200 T cpu_mp_init\n10008250 T cpu_mp_wait\n10008274 t next\n");
        SymbolTable s = SymbolTable.read(nm);
        assertEquals("cpu_mp_wait", s.function(0x10008260L));
        assertEquals("cpu_mp_wait", s.function(0x10008270L));
        assertEquals("next", s.function(0x10008274L));
        assertEquals(SymbolTable.UNKNOWN, s.function(0x10000000L));
        Path sized = dir.resolve("nmS.txt");
        Files.writeString(sized, "10008250 00000024 T cpu_mp_wait\n");
        SymbolTable t = SymbolTable.read(sized);
        assertEquals("cpu_mp_wait", t.function(0x10008270L));
        assertEquals(SymbolTable.UNKNOWN, t.function(0x10008274L));
        Path raw = dir.resolve("raw.txt");
        Files.writeString(raw, "1 212305 0x10008260 fetch 0x10008260 28\n");
        assertEquals("cpu_mp_wait", new AccessTraceReader(s, true).read(raw, null).get(0).function());
    }

    @Test
    void objdumpSymbolTable(@TempDir Path dir) throws Exception {
        Path od = dir.resolve("od.txt");
        Files.writeString(od, "\nmjpeg:     file format elf32-tradbigmips\n\nSYMBOL TABLE:\n"
                + "10000000 l    d  .text\t00000000 .text\n"
                + "10008250 g     F .text\t00000024 cpu_mp_wait\n"
                + "10009ee4 g     F .text\t00000098 idct\n"
                + "10040000 g     O .data\t00000004 flag\n");
        SymbolTable s = SymbolTable.read(od);
        assertEquals("cpu_mp_wait", s.function(0x10008260L));
        assertEquals(SymbolTable.UNKNOWN, s.function(0x10008274L));
        assertEquals("idct", s.function(0x10009f78L));
        assertEquals(SymbolTable.UNKNOWN, s.function(0x10040000L)); // data objects are not functions
    }

    @Test
    void badRowsNameFileAndLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.txt");
        Files.writeString(f, "1 10 0x10 fetch 0x10 5\n1 11 0xZZ fetch 0x10 5\n1 12 0x10 fetch 0x10\n"
                + "1 13 0x10 jump 0x10 5\n1 14 0x10 fetch 0x10 6\n");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new AccessTraceReader(null, true).read(f, null));
        assertTrue(e.getMessage().contains("bad.txt") && e.getMessage().contains("line 2"), e.getMessage());
        List<AccessTraceReader.Report> reports = new ArrayList<>();
        List<AccessEvent> kept = new AccessTraceReader(null, false).read(f, reports);
        assertEquals(List.of(10L, 14L), kept.stream().map(AccessEvent::t).toList());
        assertEquals(3, reports.get(0).skipped());
        assertTrue(reports.get(0).firstProblem().contains("line 2"));
    }
}
