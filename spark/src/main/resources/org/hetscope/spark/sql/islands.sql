-- Shared by gpu.sql and ranks.sql (included as {{islands}} after WITH): each device's activity (kernels, task
-- executions, copies and fills on the device's own tracks or its streams', as the standard library's
-- hs_track_device) cut into islands, the maximal runs of overlapping intervals (sorted by start, an island starts
-- where a start lies past every earlier end), so that busy time counts overlaps once.
td AS (
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
)
