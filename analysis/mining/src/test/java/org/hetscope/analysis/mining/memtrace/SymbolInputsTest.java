package org.hetscope.analysis.mining.memtrace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 defect 9: --symbols reads nm output, objdump -t output (gcc's ".hidden _fini" line failed) and the ELF
 * file itself ("Input length = 1" failed), and the three give the same function for every address of the program.
 */
class SymbolInputsTest {
    static Path resource(String name) throws Exception {
        return Path.of(SymbolInputsTest.class.getResource("symbols/" + name).toURI());
    }

    /** Function starts and sizes of prog as `nm -n -S` lists them (T/t symbols), read here by plain string work. */
    static List<String[]> nmFunctions(Path nm) throws Exception {
        List<String[]> out = new ArrayList<>();
        for (String line : Files.readAllLines(nm)) {
            String[] f = line.trim().split(" ");
            if (f.length >= 3 && "Tt".contains(f[f.length - 2]) && f[f.length - 2].length() == 1) {
                out.add(f);
            }
        }
        return out;
    }

    /** The three inputs agree at every address from 16 bytes before the first function to 16 after the last. */
    static void sameEverywhere(SymbolTable nm, SymbolTable objdump, SymbolTable elf, long from, long to) {
        for (long pc = from; pc < to; pc++) {
            String expected = nm.function(pc);
            assertEquals(expected, objdump.function(pc), "objdump at 0x" + Long.toHexString(pc));
            assertEquals(expected, elf.function(pc), "ELF at 0x" + Long.toHexString(pc));
        }
    }

    @Test
    void nmObjdumpAndElfOfARealProgramAgree() throws Exception {
        Path nmFile = resource("prog.nm");
        Path od = resource("prog.objdump-t");
        assertTrue(Files.readString(od).contains(".hidden _fini"));
        SymbolTable nm = SymbolTable.read(nmFile);
        SymbolTable objdump = SymbolTable.read(od); // failed before: ".hidden" read as the size column
        SymbolTable elf = SymbolTable.read(resource("prog")); // failed before: "Input length = 1"
        List<String[]> fns = nmFunctions(nmFile);
        long first = Long.MAX_VALUE;
        long last = 0;
        for (String[] f : fns) {
            long start = Long.parseLong(f[0], 16);
            String name = f[f.length - 1];
            first = Math.min(first, start);
            last = Math.max(last, start + (f.length == 4 ? Long.parseLong(f[1], 16) : 1));
            // Each function's first byte is that function in all three.
            assertEquals(name, nm.function(start));
            assertEquals(name, objdump.function(start), name);
            assertEquals(name, elf.function(start), name);
        }
        assertTrue(fns.stream().anyMatch(f -> f[f.length - 1].equals("_fini")));
        assertTrue(fns.stream().anyMatch(f -> f[f.length - 1].equals("helper"))); // static: t
        sameEverywhere(nm, objdump, elf, first - 16, last + 16);
        // Sized functions end where their size says: _start is followed by padding before the next function.
        String[] start = fns.stream().filter(f -> f[f.length - 1].equals("_start")).findFirst().orElseThrow();
        long startEnd = Long.parseLong(start[0], 16) + Long.parseLong(start[1], 16);
        assertEquals("_start", elf.function(startEnd - 1));
        assertEquals(SymbolTable.UNKNOWN, elf.function(startEnd));
    }

    /** The same on a program compiled now, when gcc, nm and objdump are installed (optimised, other layout). */
    @Test
    void freshlyCompiledProgram(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(runs(dir, "gcc", "--version") && runs(dir, "nm", "--version")
                && runs(dir, "objdump", "--version"), "gcc, nm and objdump are needed");
        Files.writeString(dir.resolve("p.c"), "static int sq(int x) { return x * x; }\n"
                + "int twice(int x) { return 2 * x; }\n__attribute__((noinline)) int f(int x) { return sq(x) + 1; }\n"
                + "int main(int c, char **v) { return f(c) + twice(c); }\n");
        assertTrue(runs(dir, "gcc", "-O1", "-o", "p", "p.c"));
        Path nm = dir.resolve("p.nm");
        Path od = dir.resolve("p.od");
        assertTrue(runsTo(dir, nm, "nm", "-n", "-S", "p"));
        assertTrue(runsTo(dir, od, "objdump", "-t", "p"));
        SymbolTable a = SymbolTable.read(nm);
        SymbolTable b = SymbolTable.read(od);
        SymbolTable c = SymbolTable.read(dir.resolve("p"));
        long first = Long.MAX_VALUE;
        long last = 0;
        for (String[] f : nmFunctions(nm)) {
            first = Math.min(first, Long.parseLong(f[0], 16));
            last = Math.max(last, Long.parseLong(f[0], 16) + (f.length == 4 ? Long.parseLong(f[1], 16) : 1));
        }
        assertTrue(first < last);
        sameEverywhere(a, b, c, first - 16, last + 16);
    }

    @Test
    void objdumpDynamicTableAndDemangledNames(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.txt");
        Files.writeString(f, "\nlib.so:     file format elf64-x86-64\n\nDYNAMIC SYMBOL TABLE:\n"
                + "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.34) __libc_start_main\n"
                + "0000000000001139 g    DF .text\t000000000000000b  Base        foo\n"
                + "0000000000001150 g    DF .text\t0000000000000010  Base        .protected bar\n");
        SymbolTable s = SymbolTable.read(f);
        assertEquals("foo", s.function(0x1139));
        assertEquals("bar", s.function(0x115f));
        assertEquals(SymbolTable.UNKNOWN, s.function(0x1160));
        Path demangled = dir.resolve("c.txt");
        Files.writeString(demangled, "0000000000001139 000000000000000b T ns::f(int, char)\n");
        assertEquals("ns::f(int, char)", SymbolTable.read(demangled).function(0x1140));
    }

    @Test
    void otherInputsAreRefusedWithFileAndPosition(@TempDir Path dir) throws Exception {
        Path bin = dir.resolve("x.bin");
        Files.write(bin, new byte[] {0x50, (byte) 0xff, (byte) 0xfe, 0x00, 0x12});
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> SymbolTable.read(bin));
        assertTrue(e.getMessage().contains("x.bin") && e.getMessage().contains("not text"), e.getMessage());
        byte[] elf = Files.readAllBytes(resource("prog"));
        Path cut = dir.resolve("cut.elf");
        Files.write(cut, java.util.Arrays.copyOf(elf, 4096)); // section headers are at the end
        e = assertThrows(TraceFormatException.class, () -> SymbolTable.read(cut));
        assertTrue(e.getMessage().contains("cut.elf") && e.getMessage().contains("outside the file"), e.getMessage());
        Path empty = dir.resolve("empty.txt");
        Files.writeString(empty, "nothing here\n");
        e = assertThrows(TraceFormatException.class, () -> SymbolTable.read(empty));
        assertTrue(e.getMessage().contains("no function symbols"), e.getMessage());
    }

    private static boolean runs(Path dir, String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean runsTo(Path dir, Path out, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).start();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
