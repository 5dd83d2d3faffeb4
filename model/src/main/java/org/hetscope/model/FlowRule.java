package org.hetscope.model;

/**
 * How a {@link Flow} was established. {@link #SOURCE} and {@link #CORRELATION} are facts from the trace;
 * {@link #FIFO} and {@link #TIME} are guesses and are shown as such.
 */
public enum FlowRule { SOURCE, CORRELATION, FIFO, TIME }
