package org.hetscope.capture.kernels.trace;

/** A producer's records do not describe a path through the CFG. */
public final class CorruptTraceException extends Exception {
    public CorruptTraceException(String message) {
        super(message);
    }
}
