/**
 * Scheduling analyses over a store imported from a kernel trace: per-CPU busy time, per-thread running, runnable
 * (waiting for a CPU) and blocked time, and the longest waits with the thread that woke the waiting one. They read
 * the {@code cpu} lanes, thread states and {@code wakeup} flows of docs/schema.md and return plain
 * {@link org.hetscope.store.Table}s.
 */
package org.hetscope.analysis.sched;
