package org.hetscope.capture.kernels.lang;

/** Malformed or unsupported kernel source; the message names file, line and column. */
public class KernelSourceException extends RuntimeException {
    private final SourcePos pos;

    public KernelSourceException(SourcePos pos, String reason) {
        super(pos + ": " + reason);
        this.pos = pos;
    }

    public SourcePos pos() {
        return pos;
    }
}
