package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;

/** The aligned text form: numbers to the right, text to the left, and an explicit line for an empty table. */
class TablePrinterTest {
    private static String text(Table t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TablePrinter.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), TablePrinter.Style.TEXT, t);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void alignsNumbersRightAndTextLeft() {
        Table.Builder b = Table.builder("kernels", "name", "count");
        b.row("gemm", 12L);
        b.row("axpy_long_name", 3L);
        assertEquals("""
                kernels
                name            count
                --------------  -----
                gemm               12
                axpy_long_name      3

                """, text(b.build()));
    }

    @Test
    void anEmptyTableSaysSo() {
        assertEquals("""
                skipped
                what  count
                ----  -----
                (none)

                """, text(Table.builder("skipped", "what", "count").build()));
    }
}
