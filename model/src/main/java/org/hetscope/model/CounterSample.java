package org.hetscope.model;

/** One value of a counter track, valid from {@code ts} until the next sample of the same track. */
public record CounterSample(long trackId, long ts, double value) {}
