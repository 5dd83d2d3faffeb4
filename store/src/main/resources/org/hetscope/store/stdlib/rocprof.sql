-- hetscope standard library: rocprof v1/v2 results.csv dispatches joined to a trace's kernels. Documented in
-- docs/stdlib.md. Reads the rocprof reader's tables (rocprof_dispatch, rocprof_dispatch_counter): installed only
-- where they exist (a store a results.csv was imported into, or `counters --join`'s session).

-- A kernel name without rocprof's decorations: cut at " [clone", then a trailing ".kd".
CREATE OR REPLACE TEMP MACRO hs_rocprof_base_name(n) AS
    regexp_replace(regexp_replace(trim(n), '(?s) \[clone.*$', ''), '\.kd$', '');

-- One row per dispatch line with the kernel slice it joins: rule 'time' when the dispatch has timestamps and a
-- kernel of the same name contains its midpoint (the first such kernel in (ts, id) order); otherwise rule 'order':
-- the k-th such dispatch of a name (in file order) joins the k-th kernel of that name not joined by time.
CREATE OR REPLACE TEMP VIEW hs_rocprof_join AS
WITH k AS (
    SELECT s.id, hs_rocprof_base_name(s.name) AS kernel, s.ts, s.ts + s.dur AS end_ts
    FROM slice s WHERE s.category = 'kernel'),
d AS (
    SELECT r.*, r.begin_ns + (r.end_ns - r.begin_ns) // 2 AS mid_ns FROM rocprof_dispatch r),
timed AS (
    SELECT d.line, arg_min(k.id, (k.ts, k.id)) AS slice_id
    FROM d JOIN k ON k.kernel = d.kernel AND k.ts <= d.mid_ns AND d.mid_ns < k.end_ts
    GROUP BY d.line),
untimed AS (
    SELECT d.line, d.kernel, row_number() OVER (PARTITION BY d.kernel ORDER BY d.line) AS rank
    FROM d WHERE d.line NOT IN (SELECT line FROM timed)),
free AS (
    SELECT k.id, k.kernel, row_number() OVER (PARTITION BY k.kernel ORDER BY k.ts, k.id) AS rank
    FROM k WHERE k.id NOT IN (SELECT slice_id FROM timed))
SELECT d.line, d.dispatch_index, d.kernel, coalesce(t.slice_id, f.id) AS slice_id,
       CASE WHEN t.slice_id IS NOT NULL THEN 'time' WHEN f.id IS NOT NULL THEN 'order' END AS rule
FROM d LEFT JOIN timed t ON t.line = d.line
LEFT JOIN untimed u ON u.line = d.line
LEFT JOIN free f ON f.kernel = u.kernel AND f.rank = u.rank;

-- The joined dispatches' counters, one row per (dispatch line, counter) in the file's order.
CREATE OR REPLACE TEMP VIEW hs_rocprof_join_counter AS
SELECT j.line, j.dispatch_index, j.kernel, j.slice_id, j.rule, c.position, c.name AS counter, c.value
FROM hs_rocprof_join j JOIN rocprof_dispatch_counter c ON c.line = j.line;
