package org.hetscope.web;

/** A query the API refuses (malformed, out of range, too large); answered with HTTP 400 and its message. */
public final class BadQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadQueryException(String message) {
        super(message);
    }
}
