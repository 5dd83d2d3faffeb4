-- Per rank (one trace per rank, as PyTorch and Nsight write them): device work, time in communication kernels
-- (NCCL/RCCL: kernel names containing nccl or rccl, any case) against compute, and busy time (the union of each
-- device's activity, summed over the rank's devices, as in gpu.sql) against the mean of all ranks.
-- load: busy_ns / mean busy_ns of the ranks; the largest is the dataset's load imbalance (imbalance.sql).
WITH td AS (
    SELECT t.trace, t.id AS track_id, coalesce(t.device_id, p.device_id) AS device_id
    FROM track t LEFT JOIN track p ON p.id = t.parent_id AND p.trace = t.trace AND p.kind = 'device'
), act AS (
    SELECT s.trace, td.device_id, s.ts, s.ts + s.dur AS end_ts, s.category, s.dur, lower(s.name) AS lname
    FROM slice s JOIN td ON td.track_id = s.track_id AND td.trace = s.trace
    WHERE s.category IN ('kernel', 'task', 'memcpy', 'memset') AND td.device_id IS NOT NULL
), ordered AS (
    SELECT trace, device_id, ts, end_ts,
           max(end_ts) OVER (PARTITION BY trace, device_id ORDER BY ts, end_ts
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
    FROM act WHERE end_ts > ts
), islands AS (
    SELECT trace, device_id, ts, end_ts,
           sum(CASE WHEN prev_end IS NULL OR ts > prev_end THEN 1 ELSE 0 END)
               OVER (PARTITION BY trace, device_id ORDER BY ts, end_ts
                     ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS island
    FROM ordered
), busy AS (
    SELECT trace, CAST(sum(len) AS BIGINT) AS busy_ns
    FROM (SELECT trace, device_id, island, max(end_ts) - min(ts) AS len FROM islands GROUP BY trace, device_id, island) i
    GROUP BY trace
), work AS (
    SELECT trace, count(DISTINCT device_id) AS devices,
           CAST(sum(CASE WHEN category IN ('kernel', 'task') THEN 1 ELSE 0 END) AS BIGINT) AS kernels,
           CAST(sum(CASE WHEN category IN ('kernel', 'task') THEN dur ELSE 0 END) AS BIGINT) AS kernel_ns,
           CAST(sum(CASE WHEN category IN ('kernel', 'task') AND (lname LIKE '%nccl%' OR lname LIKE '%rccl%')
                    THEN dur ELSE 0 END) AS BIGINT) AS comm_ns
    FROM act GROUP BY trace
), traces AS (
    SELECT DISTINCT trace FROM slice
), per_rank AS (
    SELECT r.trace, coalesce(w.devices, 0) AS devices, coalesce(w.kernels, 0) AS kernels,
           coalesce(w.kernel_ns, 0) AS kernel_ns, coalesce(w.comm_ns, 0) AS comm_ns,
           coalesce(w.kernel_ns, 0) - coalesce(w.comm_ns, 0) AS compute_ns, coalesce(b.busy_ns, 0) AS busy_ns
    FROM traces r LEFT JOIN work w ON w.trace = r.trace LEFT JOIN busy b ON b.trace = r.trace
)
SELECT trace, devices, kernels, kernel_ns, compute_ns, comm_ns,
       100 * CAST(comm_ns AS DOUBLE) / nullif(kernel_ns, 0) AS comm_pct, busy_ns,
       busy_ns / nullif(CAST(sum(busy_ns) OVER () AS DOUBLE) / count(*) OVER (), 0) AS load
FROM per_rank
ORDER BY busy_ns DESC, trace
