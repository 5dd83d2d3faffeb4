package org.hetscope.analysis.mining.scalability;

import java.util.List;
import org.hetscope.analysis.mining.memtrace.AccessEvent;

/** One execution of the program on a platform with {@code cores} cores. */
public record Run(String name, int cores, List<AccessEvent> events) {}
