package org.hetscope.model;

/**
 * A causal link between two slices, e.g. an API launch and the kernel it launched.
 *
 * @param kind what the link means: {@code launch}, {@code sync}, {@code dependency}, or the source's own name
 */
public record Flow(long id, long fromSliceId, long toSliceId, String kind, Long correlationId, FlowRule rule) {}
