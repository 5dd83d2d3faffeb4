package org.hetscope.capture.kernels.lang;

/** OpenCL address spaces; accesses to GLOBAL, LOCAL and CONSTANT objects are counted. */
public enum Space {
    PRIVATE, GLOBAL, LOCAL, CONSTANT;

    public boolean counted() {
        return this != PRIVATE;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
