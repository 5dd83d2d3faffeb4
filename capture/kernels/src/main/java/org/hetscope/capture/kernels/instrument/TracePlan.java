package org.hetscope.capture.kernels.instrument;

import java.util.List;

/**
 * A tracing variant of a kernel. {@code extraArgs} names the arguments inserted in front of the user's
 * (whose indices move up by {@code extraArgs.size()}).
 */
public record TracePlan(String kernel, String source, Tracepoints points, TraceCollector collector,
                        List<String> extraArgs, int chunkRecords, KernelScope scope) {}
