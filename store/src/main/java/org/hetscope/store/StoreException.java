package org.hetscope.store;

/** A failure of the embedded database underneath the store, with what was being done. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
