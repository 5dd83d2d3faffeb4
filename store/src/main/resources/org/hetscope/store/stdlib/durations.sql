-- hetscope standard library: duration statistics. Documented in docs/stdlib.md; keep both in step.
-- Every statistics view has the same figures: count, total_ns, min_ns, max_ns, mean_ns, stddev_ns (population
-- standard deviation), p50/p90/p95/p99_ns (nearest rank: the value at rank ceil(q * count) of the sorted
-- durations, a duration that occurred) and share_pct (the row's part of its group's total).

-- The population standard deviation of integer durations, from exact integer sums: sqrt(n*sum(x^2) - sum(x)^2) / n.
-- DuckDB's stddev_pop folds rows in floating point in whatever order its threads meet them, so two queries of one
-- store could differ in the last bit; this is the same figure on every run, engine and front end.
CREATE OR REPLACE TEMP MACRO hs_stddev_pop(x) AS
    sqrt(CAST(count(x) * sum(CAST(x AS HUGEINT) * x) - sum(CAST(x AS HUGEINT)) * sum(CAST(x AS HUGEINT)) AS DOUBLE))
    / count(x);

-- Per (category, name) over all slices, without share_pct: a filter on category and name reaches the scan, so one
-- name's figures (the web's selection panel) cost a scan of that name only.
CREATE OR REPLACE TEMP VIEW hs_slice_figures AS
SELECT category, name, count(*) AS count, CAST(sum(dur) AS BIGINT) AS total_ns, min(dur) AS min_ns,
       max(dur) AS max_ns, avg(dur) AS mean_ns, hs_stddev_pop(dur) AS stddev_ns,
       quantile_disc(dur, 0.5) AS p50_ns, quantile_disc(dur, 0.9) AS p90_ns, quantile_disc(dur, 0.95) AS p95_ns,
       quantile_disc(dur, 0.99) AS p99_ns
FROM slice GROUP BY category, name;

-- Per (category, name) over all slices, with share_pct of the category's total.
CREATE OR REPLACE TEMP VIEW hs_slice_stats AS
SELECT *, 100.0 * total_ns / nullif(sum(total_ns) OVER (PARTITION BY category), 0) AS share_pct
FROM hs_slice_figures;

-- Where a duration d falls among the slices of one (category, name): the mid-rank percentile, so that a slice
-- equal to all others sits at 50 %.
CREATE OR REPLACE TEMP MACRO hs_slice_percentile(cat, nm, d) AS TABLE
SELECT count(*) AS count,
       100.0 * (count(*) FILTER (WHERE dur < d) + count(*) FILTER (WHERE dur <= d)) / nullif(2 * count(*), 0)
           AS percentile_pct
FROM slice WHERE category = cat AND name = nm;

-- Per transfer kind (HtoD, DtoH, DtoD, HtoH, PtoP, memset, unknown), with bytes moved and the bandwidth achieved
-- while transferring: bytes / total_ns (bytes per ns = GB/s, 10^9 bytes per second).
CREATE OR REPLACE TEMP VIEW hs_transfer_stats AS
SELECT kind, count(*) AS count, CAST(sum(bytes) AS BIGINT) AS bytes, CAST(sum(dur) AS BIGINT) AS total_ns,
       min(dur) AS min_ns, max(dur) AS max_ns, avg(dur) AS mean_ns, hs_stddev_pop(dur) AS stddev_ns,
       quantile_disc(dur, 0.5) AS p50_ns, quantile_disc(dur, 0.9) AS p90_ns, quantile_disc(dur, 0.95) AS p95_ns,
       quantile_disc(dur, 0.99) AS p99_ns,
       100.0 * sum(dur) / nullif(sum(sum(dur)) OVER (), 0) AS share_pct,
       sum(bytes) / nullif(sum(dur), 0) AS gb_per_s
FROM transfer GROUP BY kind;

-- Per task name (StarPU codelet) and worker kind (the kind of the worker's device: CPU, GPU, ACCELERATOR), over
-- executed tasks (start and end known); durations are end_ts - start_ts. share_pct is of all task time.
CREATE OR REPLACE TEMP VIEW hs_task_stats AS
SELECT t.name AS codelet, coalesce(d.kind, 'unknown') AS worker_kind, count(*) AS count,
       count(DISTINCT t.worker_track_id) AS workers,
       CAST(sum(t.end_ts - t.start_ts) AS BIGINT) AS total_ns, min(t.end_ts - t.start_ts) AS min_ns,
       max(t.end_ts - t.start_ts) AS max_ns, avg(t.end_ts - t.start_ts) AS mean_ns,
       hs_stddev_pop(t.end_ts - t.start_ts) AS stddev_ns,
       quantile_disc(t.end_ts - t.start_ts, 0.5) AS p50_ns, quantile_disc(t.end_ts - t.start_ts, 0.9) AS p90_ns,
       quantile_disc(t.end_ts - t.start_ts, 0.95) AS p95_ns, quantile_disc(t.end_ts - t.start_ts, 0.99) AS p99_ns,
       100.0 * sum(t.end_ts - t.start_ts) / nullif(sum(sum(t.end_ts - t.start_ts)) OVER (), 0) AS share_pct
FROM task t LEFT JOIN track w ON w.id = t.worker_track_id LEFT JOIN device d ON d.id = w.device_id
WHERE t.start_ts IS NOT NULL AND t.end_ts IS NOT NULL
GROUP BY t.name, coalesce(d.kind, 'unknown');

-- Every slice's duration with its (category, name): the samples behind hs_slice_stats, for tests over whole
-- distributions (hetscope diff's Mann-Whitney U test compares two stores' samples of one category and name).
CREATE OR REPLACE TEMP VIEW hs_slice_durations AS
SELECT category, name, dur AS dur_ns FROM slice;

-- Iterations the trace marks, per iteration number and side: 'host' for slices on tracks without a device (the
-- step as the CPU ran it), 'device' for those on a device's track (Kineto's gpu_user_annotation: the span of the
-- step's GPU work). Marked by slices named ProfilerStep#N (the PyTorch profiler's steps, also as NVTX ranges);
-- in a trace without them, by annotation ranges (NVTX, roctx, user annotations) named like an iteration number:
-- 'iteration 3', 'iter_3', 'step 3', 'Step#3', 'train_step 3', 'batch 3' (case-insensitive; separators space # _
-- : = -). One family per trace, so a step never counts twice. Per row: how many such slices, the first start, the
-- last end, their summed duration, and the marker family ('ProfilerStep' or 'range').
CREATE OR REPLACE TEMP VIEW hs_iteration_slices AS
WITH marked AS (
    SELECT s.id, s.track_id, s.ts, s.dur, s.name,
           CASE WHEN regexp_matches(s.name, '^ProfilerStep#[0-9]+$') THEN 'ProfilerStep' ELSE 'range' END AS marker,
           CAST(CASE WHEN regexp_matches(s.name, '^ProfilerStep#[0-9]+$')
                     THEN regexp_extract(s.name, '^ProfilerStep#([0-9]+)$', 1)
                     ELSE regexp_extract(s.name, '(?i)^(?:iteration|iter|step|train_step|batch)[ #_:=-]*([0-9]+)$', 1)
                END AS BIGINT) AS iteration
    FROM slice s
    WHERE (s.name LIKE 'ProfilerStep#%' AND regexp_matches(s.name, '^ProfilerStep#[0-9]+$'))
       OR (s.category = 'annotation'
           AND regexp_matches(s.name, '(?i)^(?:iteration|iter|step|train_step|batch)[ #_:=-]*[0-9]+$')))
SELECT * FROM marked
WHERE marker = CASE WHEN EXISTS (SELECT 1 FROM marked WHERE marker = 'ProfilerStep') THEN 'ProfilerStep'
                    ELSE 'range' END;

CREATE OR REPLACE TEMP VIEW hs_iterations AS
SELECT s.iteration,
       CASE WHEN td.device_id IS NULL THEN 'host' ELSE 'device' END AS side,
       count(*) AS count, min(s.ts) AS ts, max(s.ts + s.dur) AS end_ts, CAST(sum(s.dur) AS BIGINT) AS dur_ns,
       s.marker
FROM hs_iteration_slices s LEFT JOIN hs_track_device td ON td.track_id = s.track_id
GROUP BY ALL;
