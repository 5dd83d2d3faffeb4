package org.hetscope.cli;

import picocli.CommandLine.Option;

/** The {@code --csv} / {@code --json} switches shared by every command that prints tables. */
public final class OutputOptions {
    @Option(names = "--csv", description = "Print comma-separated values instead of a table.")
    boolean csv;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    public TablePrinter.Style style() {
        return json ? TablePrinter.Style.JSON : csv ? TablePrinter.Style.CSV : TablePrinter.Style.TEXT;
    }
}
