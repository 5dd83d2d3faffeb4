-- hetscope standard library: what a selected time range [w0, w1) (absolute ns) holds, for the web timeline's area
-- selection and 'hetscope sql'. Documented in docs/stdlib.md ("Time ranges").

-- State slices (category 'state': kernel-trace thread states, StarPU worker states) that are not time on a CPU.
CREATE OR REPLACE TEMP VIEW hs_off_cpu_state AS
SELECT * FROM (VALUES ('runnable'), ('blocked'), ('idle'), ('sleeping'), ('waiting'), ('preempted')) v(name);

-- Per thread, its time on a CPU within [w0, w1): the outermost slices (depth 0) of its thread and worker tracks,
-- clipped to the range, less the states of hs_off_cpu_state. Depth-0 slices of one track never overlap (a slice
-- starting while another runs is nested), so their clipped sum is the time the track was active.
CREATE OR REPLACE TEMP MACRO hs_thread_time(w0, w1) AS TABLE
WITH win AS MATERIALIZED (SELECT CAST(w0 AS BIGINT) AS a, CAST(w1 AS BIGINT) AS b),
tracks AS (
    SELECT t.id AS track_id, t.thread_id FROM track t
    WHERE t.thread_id IS NOT NULL AND t.kind IN ('thread', 'worker')
)
SELECT th.process_id, p.pid, p.name AS process, th.id AS thread_id, th.tid, th.name AS thread,
       count(*) AS slices,
       sum(greatest(0, least(s.ts + s.dur, win.b) - greatest(s.ts, win.a)))::BIGINT AS cpu_ns
FROM slice s JOIN tracks k ON k.track_id = s.track_id JOIN thread th ON th.id = k.thread_id
LEFT JOIN process p ON p.id = th.process_id, win
WHERE s.depth = 0 AND s.ts < win.b AND s.ts + s.dur > win.a
  AND NOT (s.category = 'state' AND lower(s.name) IN (SELECT name FROM hs_off_cpu_state))
GROUP BY ALL;

-- Per process, the sum of its threads' hs_thread_time.
CREATE OR REPLACE TEMP MACRO hs_process_time(w0, w1) AS TABLE
SELECT process_id, pid, process, count(*) AS threads, sum(cpu_ns)::BIGINT AS cpu_ns
FROM hs_thread_time(w0, w1) GROUP BY ALL;

-- Per counter track, its samples within [w0, w1) and the value holding over the range (a counter keeps its
-- last value until the next sample): count, min, max and mean of the samples in the range; value_at_start (the
-- last sample before w0, NULL if none); time_mean, the time-weighted mean of the held value over the part of the
-- range from w0 (or the first sample, when none precedes w0) to w1.
CREATE OR REPLACE TEMP MACRO hs_counter_range(w0, w1) AS TABLE
WITH win AS MATERIALIZED (SELECT CAST(w0 AS BIGINT) AS a, CAST(w1 AS BIGINT) AS b),
inside AS (
    SELECT c.track_id, c.ts, c.value FROM counter c, win WHERE c.ts >= win.a AND c.ts < win.b
),
held AS (
    SELECT c.track_id, arg_max(c.value, c.ts) AS value FROM counter c, win WHERE c.ts < win.a GROUP BY c.track_id
),
steps AS (
    SELECT track_id, ts, value FROM inside
    UNION ALL SELECT h.track_id, win.a, h.value FROM held h, win
),
timed AS (
    SELECT track_id, value, coalesce(lead(ts) OVER (PARTITION BY track_id ORDER BY ts), win.b) - ts AS len
    FROM steps, win
),
weighted AS (
    SELECT track_id, sum(value * len) / nullif(sum(len), 0) AS time_mean FROM timed GROUP BY track_id
),
stats AS (
    SELECT track_id, count(*) AS samples, min(value) AS min, max(value) AS max, avg(value) AS mean
    FROM inside GROUP BY track_id
)
SELECT t.id AS track_id, t.name AS counter, t.unit, coalesce(st.samples, 0) AS samples, st.min, st.max, st.mean,
       h.value AS value_at_start, w.time_mean
FROM track t LEFT JOIN stats st ON st.track_id = t.id LEFT JOIN held h ON h.track_id = t.id
LEFT JOIN weighted w ON w.track_id = t.id
WHERE st.track_id IS NOT NULL OR h.track_id IS NOT NULL;

-- The call tree of the slices of some tracks (a LIST of track ids) overlapping [w0, w1): one row per call path
-- (the names from the outermost slice down, joined by ';' as flame-graph tools write them), with its depth,
-- last name, the number of slices on that path, their time clipped to the range (total_ns) and that time less
-- their children's (self_ns). A slice's path follows its parent_id chain within the selected tracks.
CREATE OR REPLACE TEMP MACRO hs_call_tree(w0, w1, tracks) AS TABLE
WITH RECURSIVE win AS MATERIALIZED (SELECT CAST(w0 AS BIGINT) AS a, CAST(w1 AS BIGINT) AS b),
sel AS MATERIALIZED (
    SELECT s.id, s.parent_id, s.name,
           greatest(0, least(s.ts + s.dur, win.b) - greatest(s.ts, win.a)) AS clipped
    FROM slice s, win
    WHERE list_contains(tracks, s.track_id) AND s.ts < win.b AND s.ts + s.dur > win.a
),
tree(id, path, depth, name, clipped) AS (
    SELECT id, name, 0, name, clipped FROM sel
    WHERE parent_id IS NULL OR parent_id NOT IN (SELECT id FROM sel)
    UNION ALL
    SELECT c.id, t.path || ';' || c.name, t.depth + 1, c.name, c.clipped
    FROM sel c JOIN tree t ON c.parent_id = t.id
),
child AS (
    SELECT p.path, sum(c.clipped) AS children_ns
    FROM tree c JOIN sel s ON s.id = c.id JOIN tree p ON p.id = s.parent_id GROUP BY p.path
)
SELECT t.path, any_value(t.depth) AS depth, any_value(t.name) AS name, count(*) AS slices,
       sum(t.clipped)::BIGINT AS total_ns, (sum(t.clipped) - coalesce(any_value(ch.children_ns), 0))::BIGINT AS self_ns
FROM tree t LEFT JOIN child ch ON ch.path = t.path
GROUP BY t.path;
