package org.hetscope.model;

/** A hardware or derived counter value measured for one kernel dispatch (time independent). */
public record KernelCounter(long sliceId, String name, double value) {}
