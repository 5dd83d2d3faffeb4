package org.hetscope.capture.kernels.run;

/** The OpenCL compiler rejected a program; the message is its build log. */
public final class KernelBuildException extends RuntimeException {
    private final String source;

    public KernelBuildException(String log, String source) {
        super("OpenCL build failed: " + log);
        this.source = source;
    }

    public String source() {
        return source;
    }
}
