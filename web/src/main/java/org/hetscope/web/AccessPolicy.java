package org.hetscope.web;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;

/**
 * Who may use the server. Without a token only clients on this machine (loopback) are served, and only under a
 * loopback name: the Host header (and the Origin header of API requests, when a browser sends one) must name this
 * machine, so that a page whose own name was rebound to 127.0.0.1 (DNS rebinding) cannot read the API. With a
 * token every client, local or not, must present it (header {@code X-Hetscope-Token}, query {@code token} or the
 * cookie the page receives after opening the URL with {@code ?token=}).
 */
public record AccessPolicy(String token) {
    public static final String HEADER = "X-Hetscope-Token";
    public static final String COOKIE = "hetscope_token";

    public AccessPolicy {
        if (token != null && token.length() < 8) {
            throw new IllegalArgumentException("the access token must have at least 8 characters");
        }
    }

    public boolean allows(InetAddress client, String presentedToken) {
        if (token == null) {
            return client != null && client.isLoopbackAddress();
        }
        return presentedToken != null && MessageDigest.isEqual(
                token.getBytes(StandardCharsets.UTF_8), presentedToken.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether a Host header ({@code name[:port]}) names this machine: localhost (and *.localhost), a loopback
     * address literal, or {@code bound}, the loopback name the server was started on. Names are never looked up
     * (a lookup is what the rebinding controls).
     */
    public static boolean loopbackHost(String hostHeader, String bound) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return false;
        }
        String h = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0) {
                return false;
            }
            h = h.substring(1, end);
        } else if (h.indexOf(':') == h.lastIndexOf(':') && h.indexOf(':') >= 0) {
            h = h.substring(0, h.indexOf(':'));
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.equals("localhost") || h.endsWith(".localhost")) {
            return true;
        }
        if (bound != null && h.equals(bound.toLowerCase(Locale.ROOT))) {
            return true;
        }
        boolean literal = h.contains(":") || h.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
        if (!literal) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress(); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Whether an Origin header ({@code scheme://host[:port]}) is a page served from this machine. */
    public static boolean loopbackOrigin(String origin, String bound) {
        try {
            URI u = new URI(origin.trim());
            String scheme = u.getScheme();
            String authority = u.getRawAuthority();
            return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && authority != null
                    && !authority.contains("@") && loopbackHost(authority, bound);
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
