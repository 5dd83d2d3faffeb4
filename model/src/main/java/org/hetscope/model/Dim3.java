package org.hetscope.model;

/** A three-dimensional size: grid or block (work-group) dimensions. */
public record Dim3(long x, long y, long z) {
    public long volume() {
        return x * y * z;
    }
}
