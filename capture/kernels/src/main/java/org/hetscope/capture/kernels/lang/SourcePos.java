package org.hetscope.capture.kernels.lang;

/** A place in a kernel source file: file name, 1-based line and column. */
public record SourcePos(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
