-- Per rank (one trace per rank, as PyTorch and Nsight write them): device work, time in communication kernels
-- (NCCL/RCCL: kernel names containing nccl or rccl, any case) against compute, and busy time (the union of each
-- device's activity, summed over the rank's devices, as in gpu.sql) against the mean of all ranks.
-- load: busy_ns / mean busy_ns of the ranks; the largest is the dataset's load imbalance (imbalance.sql).
WITH {{islands}}, busy AS (
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
