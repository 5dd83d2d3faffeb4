package org.hetscope.analysis.mining.memtrace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.hetscope.model.TraceFormatException;

/**
 * The function symbols of an ELF file (32 or 64 bit, either byte order), read from its section headers: the
 * {@code SHT_SYMTAB} section, or {@code SHT_DYNSYM} when the file is stripped, with names from the string table the
 * section links to. Function symbols are {@code STT_FUNC} and {@code STT_GNU_IFUNC} defined in a section (not
 * undefined, absolute or common): what {@code objdump -t} marks {@code F} outside {@code *UND*}/{@code *ABS*}.
 * Every offset is checked against the file's size, so a damaged file gives an error naming the byte.
 */
public final class ElfSymbols {
    /** Receives one function symbol: start address, size (0 when unknown), name. */
    @FunctionalInterface
    public interface Sink {
        void symbol(long start, long size, String name);
    }

    private static final int SHT_SYMTAB = 2;
    private static final int SHT_DYNSYM = 11;
    private static final int STT_FUNC = 2;
    private static final int STT_GNU_IFUNC = 10;
    private static final int SHN_LORESERVE = 0xff00;

    private ElfSymbols() {}

    /** Whether these first bytes are the ELF magic number. */
    public static boolean isElf(byte[] head) {
        return head.length >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
    }

    public static void read(Path file, Sink out) throws IOException, TraceFormatException {
        ByteBuffer b;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (ch.size() > Integer.MAX_VALUE) {
                throw new TraceFormatException(file, "byte 0", "ELF files over 2 GiB are not read; give the output "
                        + "of nm -n -S instead");
            }
            b = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        }
        new Reader(file, b).symbols(out);
    }

    private static final class Reader {
        private final Path file;
        private final ByteBuffer b;
        private boolean wide;

        Reader(Path file, ByteBuffer b) {
            this.file = file;
            this.b = b;
        }

        private TraceFormatException bad(long at, String what) {
            return new TraceFormatException(file, "byte " + at, what);
        }

        private void need(long at, long len, String what) throws TraceFormatException {
            if (at < 0 || len < 0 || at > b.limit() || len > b.limit() - at) {
                throw bad(at, what + " lies outside the file (" + b.limit() + " bytes)");
            }
        }

        private long u32(long at) {
            return Integer.toUnsignedLong(b.getInt((int) at));
        }

        private long word(long at) {
            return wide ? b.getLong((int) at) : u32(at);
        }

        private int u16(long at) {
            return Short.toUnsignedInt(b.getShort((int) at));
        }

        void symbols(Sink out) throws TraceFormatException {
            need(0, 52, "the ELF header");
            int cls = b.get(4);
            int data = b.get(5);
            if (cls != 1 && cls != 2) {
                throw bad(4, "unknown ELF class " + cls + " (expected 1: 32 bit or 2: 64 bit)");
            }
            if (data != 1 && data != 2) {
                throw bad(5, "unknown ELF byte order " + data + " (expected 1: little or 2: big endian)");
            }
            wide = cls == 2;
            b.order(data == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            need(0, wide ? 64 : 52, "the ELF header");
            long shoff = word(wide ? 0x28 : 0x20);
            int shentsize = u16(wide ? 0x3a : 0x2e);
            long shnum = u16(wide ? 0x3c : 0x30);
            if (shoff == 0) {
                throw bad(wide ? 0x28 : 0x20, "no section headers, so no symbol table");
            }
            int minEntry = wide ? 64 : 40;
            if (shentsize < minEntry) {
                throw bad(wide ? 0x3a : 0x2e, "section header size " + shentsize + " is below " + minEntry);
            }
            need(shoff, shentsize, "the first section header");
            if (shnum == 0) {
                shnum = word(shoff + (wide ? 0x20 : 0x14)); // more than 0xff00 sections: the count is here
            }
            need(shoff, shnum * shentsize, "the section headers");
            long table = -1;
            for (int type : new int[] {SHT_SYMTAB, SHT_DYNSYM}) {
                for (long i = 0; i < shnum && table < 0; i++) {
                    if (u32(shoff + i * shentsize + 4) == type) {
                        table = i;
                    }
                }
            }
            if (table < 0) {
                throw bad(shoff, "no symbol table (.symtab or .dynsym): the file is stripped");
            }
            long sh = shoff + table * shentsize;
            long offset = word(sh + (wide ? 0x18 : 0x10));
            long size = word(sh + (wide ? 0x20 : 0x14));
            long link = u32(sh + (wide ? 0x28 : 0x18));
            long entsize = word(sh + (wide ? 0x38 : 0x24));
            int symSize = wide ? 24 : 16;
            if (entsize < symSize) {
                throw bad(sh, "symbol entry size " + entsize + " is below " + symSize);
            }
            if (link >= shnum) {
                throw bad(sh, "the symbol table links to section " + link + " of " + shnum);
            }
            long strSh = shoff + link * shentsize;
            long strOff = word(strSh + (wide ? 0x18 : 0x10));
            long strSize = word(strSh + (wide ? 0x20 : 0x14));
            need(offset, size, "the symbol table");
            need(strOff, strSize, "the symbol names");
            for (long at = offset; at + symSize <= offset + size; at += entsize) {
                long name = u32(at);
                int info = b.get((int) (at + (wide ? 4 : 12))) & 0xff;
                int shndx = u16(at + (wide ? 6 : 14));
                long value = wide ? b.getLong((int) (at + 8)) : u32(at + 4);
                long length = wide ? b.getLong((int) (at + 16)) : u32(at + 8);
                int type = info & 0xf;
                if ((type != STT_FUNC && type != STT_GNU_IFUNC) || shndx == 0 || shndx >= SHN_LORESERVE) {
                    continue;
                }
                if (name >= strSize) {
                    throw bad(at, "symbol name offset " + name + " beyond the string table (" + strSize + " bytes)");
                }
                long end = strOff + name;
                while (end < strOff + strSize && b.get((int) end) != 0) {
                    end++;
                }
                byte[] text = new byte[(int) (end - strOff - name)];
                b.get((int) (strOff + name), text);
                if (text.length > 0) {
                    out.symbol(value, length, new String(text, StandardCharsets.UTF_8));
                }
            }
        }
    }
}
