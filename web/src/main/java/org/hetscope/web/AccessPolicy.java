package org.hetscope.web;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may use the server. Without a token only clients on this machine (loopback) are served; with a token every
 * client, local or not, must present it (header {@code X-Hetscope-Token}, query {@code token} or the cookie the
 * page receives after opening the URL with {@code ?token=}).
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
}
