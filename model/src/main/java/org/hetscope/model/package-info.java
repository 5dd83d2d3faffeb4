/**
 * The unified heterogeneous trace model (see docs/schema.md).
 *
 * <p>Readers in {@code formats} decode their input and emit these records into a {@link TraceSink};
 * the store writes them to a DuckDB file. All times are exact integer nanoseconds on one timeline per trace.
 */
package org.hetscope.model;
