-- GPU (and accelerator, StarPU worker) utilisation per trace and device. A device's activity is its kernels, task
-- executions, copies and fills, on the device's own tracks or its streams' (as the standard library's
-- hs_track_device). busy_ns is the length of the union of the activity intervals (overlaps count once: the
-- intervals sorted by start, an island starts where a start lies past every earlier end), over the window from the
-- trace's first to its last device activity, any device: the figure hs_device_utilisation gives per store.
WITH {{islands}}, busy AS (
    SELECT trace, device_id, CAST(sum(len) AS BIGINT) AS busy_ns, count(*) AS busy_spans
    FROM (SELECT trace, device_id, island, max(end_ts) - min(ts) AS len FROM islands GROUP BY trace, device_id, island) i
    GROUP BY trace, device_id
), work AS (
    SELECT trace, device_id,
           CAST(sum(CASE WHEN category IN ('kernel', 'task') THEN 1 ELSE 0 END) AS BIGINT) AS kernels,
           CAST(sum(CASE WHEN category IN ('kernel', 'task') THEN dur ELSE 0 END) AS BIGINT) AS kernel_ns,
           CAST(sum(CASE WHEN category IN ('kernel', 'task') AND (lname LIKE '%nccl%' OR lname LIKE '%rccl%')
                    THEN dur ELSE 0 END) AS BIGINT) AS comm_ns,
           CAST(sum(CASE WHEN category IN ('memcpy', 'memset') THEN dur ELSE 0 END) AS BIGINT) AS copy_ns
    FROM act GROUP BY trace, device_id
), win AS (
    SELECT trace, min(ts) AS start_ns, max(end_ts) AS end_ns FROM act GROUP BY trace
)
SELECT w.trace, coalesce(d.name, d.kind, 'device') || ' #' || coalesce(CAST(d.ordinal AS STRING), '?') AS device, w.device_id,
       w.kernels, w.kernel_ns, w.comm_ns, w.copy_ns,
       coalesce(b.busy_ns, 0) AS busy_ns, win.end_ns - win.start_ns AS window_ns,
       100 * CAST(coalesce(b.busy_ns, 0) AS DOUBLE) / nullif(win.end_ns - win.start_ns, 0) AS busy_pct,
       coalesce(b.busy_spans, 0) AS busy_spans
FROM work w JOIN win ON win.trace = w.trace
LEFT JOIN busy b ON b.trace = w.trace AND b.device_id = w.device_id
LEFT JOIN device d ON d.id = w.device_id AND d.trace = w.trace
ORDER BY w.trace, d.ordinal, w.device_id
