-- hetscope standard library: devices, their activity and utilisation. Documented in docs/stdlib.md.

-- Each device with the label every table shows: its name (else its kind) and ordinal, e.g. "OPENCL0 #0".
CREATE OR REPLACE TEMP VIEW hs_device AS
SELECT id AS device_id, kind, ordinal, coalesce(name, kind) || ' #' || ordinal AS device
FROM device;

-- The device a track's activity runs on: the track's own device, else its parent device track's.
CREATE OR REPLACE TEMP VIEW hs_track_device AS
SELECT t.id AS track_id, coalesce(t.device_id, p.device_id) AS device_id
FROM track t LEFT JOIN track p ON p.id = t.parent_id AND p.kind = 'device'
WHERE coalesce(t.device_id, p.device_id) IS NOT NULL;

-- Device activity: kernels and task executions (class 'compute'), copies and fills (class 'copy'), each on the
-- track (stream, queue or worker: the "unit") and device it ran on.
CREATE OR REPLACE TEMP VIEW hs_device_activity AS
SELECT s.id AS slice_id, td.device_id, s.track_id AS unit_track_id, s.ts, s.ts + s.dur AS end_ts,
       CASE WHEN s.category IN ('kernel', 'task') THEN 'compute' ELSE 'copy' END AS class
FROM slice s JOIN hs_track_device td ON td.track_id = s.track_id
WHERE s.category IN ('kernel', 'task', 'memcpy', 'memset');

-- The units of each device: every track that holds device activity.
CREATE OR REPLACE TEMP VIEW hs_device_unit AS
SELECT DISTINCT a.device_id, a.unit_track_id, t.kind AS unit_kind, t.name AS unit, t.sort_index
FROM hs_device_activity a JOIN track t ON t.id = a.unit_track_id;

-- From the first start to the last end of device activity.
CREATE OR REPLACE TEMP VIEW hs_activity_bounds AS
SELECT min(ts) AS start_ns, max(end_ts) AS end_ns, max(end_ts) - min(ts) AS dur_ns FROM hs_device_activity;

-- The default utilisation window: the activity bounds, else (no device activity) the trace bounds.
CREATE OR REPLACE TEMP VIEW hs_utilisation_window AS
SELECT coalesce(a.start_ns, t.start_ns) AS start_ns, coalesce(a.end_ns, t.end_ns) AS end_ns,
       coalesce(a.dur_ns, t.dur_ns) AS dur_ns
FROM hs_activity_bounds a, hs_trace_bounds t;

-- The sweep behind utilisation and concurrency: for each device (level 'device') and each unit (level 'unit'),
-- the window [w0, w1) cut into segments during which the number of compute activities (k) and of copies (c)
-- stays the same. Activities are clipped to the window; at equal times ends come before starts, so intervals
-- that touch do not overlap. A row at w0 per group makes leading idle time, and groups without activity, count.
-- For speed the sweep is one running sum in (group, time) order over all groups, with no PARTITION BY: a group is
-- g = device id (device level) or -track id (unit level), each group's starts and ends cancel so the sum is 0
-- where the next group begins, and k and c travel packed in one number (k + c * 2^24).
CREATE OR REPLACE TEMP MACRO hs_utilisation_segments(w0, w1) AS TABLE
WITH win AS MATERIALIZED (
    SELECT CAST(w0 AS BIGINT) AS a, CAST(w1 AS BIGINT) AS b
), clipped AS MATERIALIZED (
    SELECT x.device_id, x.unit_track_id, greatest(x.ts, win.a) AS s, least(x.end_ts, win.b) AS e,
           CASE WHEN x.class = 'compute' THEN 1 ELSE 16777216 END AS d
    -- an activity of zero length inside the window adds no time (and its end sorting before its start would
    -- split an idle gap in two)
    FROM hs_device_activity x, win
    WHERE x.ts < win.b AND x.end_ts > win.a AND win.b > win.a AND x.end_ts > x.ts
), edge AS (
    SELECT id AS g, win.a AS t, -1 AS ord, 0 AS d FROM device, win
    UNION ALL SELECT -unit_track_id, win.a, -1, 0 FROM hs_device_unit, win
    UNION ALL SELECT device_id, s, 1, d FROM clipped
    UNION ALL SELECT device_id, e, 0, -d FROM clipped
    UNION ALL SELECT -unit_track_id, s, 1, d FROM clipped
    UNION ALL SELECT -unit_track_id, e, 0, -d FROM clipped
), swept AS (
    SELECT g, t, sum(d) OVER o AS n, lead(t) OVER o AS next_t, lead(g) OVER o AS next_g
    FROM edge WINDOW o AS (ORDER BY g, t, ord ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT CASE WHEN g > 0 THEN 'device' ELSE 'unit' END AS level,
       CASE WHEN g > 0 THEN g ELSE u.device_id END AS device_id,
       CASE WHEN g > 0 THEN NULL ELSE -g END AS unit_track_id,
       CAST(n % 16777216 AS INTEGER) AS k, CAST(n // 16777216 AS INTEGER) AS c,
       greatest(CASE WHEN next_g = g THEN next_t ELSE win.b END - t, 0) AS len
FROM swept CROSS JOIN win LEFT JOIN hs_device_unit u ON g < 0 AND u.unit_track_id = -g;

-- Busy, idle, overlap and concurrency per device and per unit (stream, queue, worker) over [w0, w1).
CREATE OR REPLACE TEMP MACRO hs_utilisation(w0, w1) AS TABLE
WITH win AS MATERIALIZED (
    SELECT greatest(CAST(w1 AS BIGINT) - CAST(w0 AS BIGINT), 0) AS len
), agg AS (
    SELECT level, device_id, unit_track_id,
           coalesce(sum(len) FILTER (WHERE k + c > 0), 0) AS busy_ns,
           coalesce(sum(len) FILTER (WHERE k > 0), 0) AS compute_ns,
           coalesce(sum(len) FILTER (WHERE c > 0), 0) AS copy_ns,
           coalesce(sum(len) FILTER (WHERE k > 0 AND c > 0), 0) AS overlap_ns,
           count(*) FILTER (WHERE k + c = 0 AND len > 0) AS idle_gaps,
           coalesce(max(len) FILTER (WHERE k + c = 0), 0) AS longest_idle_ns,
           coalesce(sum(k * len), 0) AS compute_time_ns,
           max(k) AS max_concurrency
    FROM hs_utilisation_segments(w0, w1) GROUP BY ALL
)
SELECT CASE WHEN a.level = 'device' THEN 'device' ELSE u.unit_kind END AS level,
       d.device, u.unit, a.device_id, a.unit_track_id,
       win.len AS window_ns,
       CAST(a.busy_ns AS BIGINT) AS busy_ns,
       100.0 * a.busy_ns / nullif(win.len, 0) AS busy_pct,
       CAST(a.compute_ns AS BIGINT) AS compute_ns, CAST(a.copy_ns AS BIGINT) AS copy_ns,
       CAST(a.overlap_ns AS BIGINT) AS overlap_ns,
       CAST(win.len - a.busy_ns AS BIGINT) AS idle_ns,
       100.0 * (win.len - a.busy_ns) / nullif(win.len, 0) AS idle_pct,
       a.idle_gaps, CAST(a.longest_idle_ns AS BIGINT) AS longest_idle_ns,
       CAST(a.compute_time_ns AS DOUBLE) / nullif(a.compute_ns, 0) AS mean_concurrency,
       CAST(a.max_concurrency AS BIGINT) AS max_concurrency
FROM agg a CROSS JOIN win JOIN hs_device d ON d.device_id = a.device_id
LEFT JOIN hs_device_unit u ON u.device_id = a.device_id AND u.unit_track_id = a.unit_track_id
ORDER BY d.ordinal, d.device_id, a.level = 'unit', u.sort_index, a.unit_track_id;

-- Time during which exactly `concurrency` compute activities run, per device and unit, over [w0, w1).
CREATE OR REPLACE TEMP MACRO hs_concurrency(w0, w1) AS TABLE
WITH win AS MATERIALIZED (
    SELECT greatest(CAST(w1 AS BIGINT) - CAST(w0 AS BIGINT), 0) AS len
), agg AS (
    SELECT level, device_id, unit_track_id, k, sum(len) AS len
    FROM hs_utilisation_segments(w0, w1) GROUP BY ALL HAVING sum(len) > 0
)
SELECT CASE WHEN a.level = 'device' THEN 'device' ELSE u.unit_kind END AS level, d.device, u.unit,
       a.device_id, a.unit_track_id, CAST(a.k AS BIGINT) AS concurrency, CAST(a.len AS BIGINT) AS dur_ns,
       100.0 * a.len / nullif(win.len, 0) AS dur_pct
FROM agg a CROSS JOIN win JOIN hs_device d ON d.device_id = a.device_id
LEFT JOIN hs_device_unit u ON u.device_id = a.device_id AND u.unit_track_id = a.unit_track_id
ORDER BY d.ordinal, d.device_id, a.level = 'unit', u.sort_index, a.unit_track_id, a.k;

-- Utilisation and concurrency over the default window.
CREATE OR REPLACE TEMP VIEW hs_device_utilisation AS
SELECT * FROM hs_utilisation((SELECT start_ns FROM hs_utilisation_window), (SELECT end_ns FROM hs_utilisation_window));

CREATE OR REPLACE TEMP VIEW hs_device_concurrency AS
SELECT * FROM hs_concurrency((SELECT start_ns FROM hs_utilisation_window), (SELECT end_ns FROM hs_utilisation_window));
