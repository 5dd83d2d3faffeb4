package org.hetscope.analysis.mining.contention;

/** A field of an access event that can become part of its symbol. */
public enum SymbolField { TYPE, PC, ADDRESS, PAGE, FUNCTION, NODE, HOPS, LATENCY }
