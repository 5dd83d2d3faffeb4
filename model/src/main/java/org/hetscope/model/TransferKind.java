package org.hetscope.model;

/** Direction of a {@link Transfer}: host to device, device to host, and so on; MEMSET fills memory. */
public enum TransferKind {
    HTOD, DTOH, DTOD, HTOH, PTOP, MEMSET, UNKNOWN;

    public String label() {
        return switch (this) {
            case HTOD -> "HtoD";
            case DTOH -> "DtoH";
            case DTOD -> "DtoD";
            case HTOH -> "HtoH";
            case PTOP -> "PtoP";
            case MEMSET -> "memset";
            case UNKNOWN -> "unknown";
        };
    }
}
