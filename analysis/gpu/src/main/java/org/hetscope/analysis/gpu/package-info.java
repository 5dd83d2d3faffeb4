/**
 * GPU analyses over a store: duration statistics per kernel, API function and memory-operation kind; busy, idle,
 * overlap and concurrency per device and stream; launch latency along API-to-kernel flows; and the trace overview
 * behind {@code hetscope info}. Each returns plain {@link org.hetscope.store.Table}s.
 */
package org.hetscope.analysis.gpu;
