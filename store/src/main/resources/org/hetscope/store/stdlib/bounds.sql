-- hetscope standard library: bounds. Documented in docs/stdlib.md; keep both in step.

-- The trace: from the earliest to the latest time of any timed row (slice starts and ends, instants, counter
-- samples, residency intervals, transfers). One row; all NULL when the store holds no timed row.
CREATE OR REPLACE TEMP VIEW hs_trace_bounds AS
SELECT min(t0) AS start_ns, max(t1) AS end_ns, max(t1) - min(t0) AS dur_ns
FROM (
    SELECT min(ts) AS t0, max(ts + dur) AS t1 FROM slice
    UNION ALL SELECT min(ts), max(ts) FROM instant
    UNION ALL SELECT min(ts), max(ts) FROM counter
    UNION ALL SELECT min(ts), max(ts + dur) FROM residency
    UNION ALL SELECT min(ts), max(ts + dur) FROM transfer
);
