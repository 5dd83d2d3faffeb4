-- The slowest ranks per iteration. Iterations are the PyTorch profiler's ProfilerStep#N slices on host tracks (as
-- the standard library's hs_iterations, side 'host'): per rank and N, from the first start to the last end. Per
-- iteration the median over the ranks and the MAD (median absolute deviation from it); a rank's straggler score
-- is (its time - median) / MAD: how many MADs slower than the typical rank (null when the MAD is 0). Medians of
-- an even count are the mean of the two middle values. place 1 is the iteration's slowest rank.
WITH td AS (
    SELECT t.trace, t.id AS track_id, coalesce(t.device_id, p.device_id) AS device_id
    FROM track t LEFT JOIN track p ON p.id = t.parent_id AND p.trace = t.trace AND p.kind = 'device'
), steps AS (
    SELECT s.trace, try_cast(regexp_extract(s.name, '^ProfilerStep#([0-9]+)$', 1) AS BIGINT) AS iteration,
           s.ts, s.ts + s.dur AS end_ts
    FROM slice s LEFT JOIN td ON td.track_id = s.track_id AND td.trace = s.trace
    WHERE s.name LIKE 'ProfilerStep#%' AND td.device_id IS NULL
), it AS (
    SELECT trace, iteration, max(end_ts) - min(ts) AS dur_ns
    FROM steps WHERE iteration IS NOT NULL GROUP BY trace, iteration
), ranked AS (
    SELECT trace, iteration, dur_ns, row_number() OVER (PARTITION BY iteration ORDER BY dur_ns, trace) AS rn,
           count(*) OVER (PARTITION BY iteration) AS n
    FROM it
), med AS (
    SELECT iteration, (CAST(min(dur_ns) AS DOUBLE) + CAST(max(dur_ns) AS DOUBLE)) / 2 AS median_ns
    FROM ranked WHERE rn = floor((n + 1) / 2) OR rn = ceil((n + 1) / 2) GROUP BY iteration
), dev AS (
    SELECT r.trace, r.iteration, r.dur_ns, r.n, m.median_ns, abs(r.dur_ns - m.median_ns) AS d,
           row_number() OVER (PARTITION BY r.iteration ORDER BY abs(r.dur_ns - m.median_ns), r.trace) AS rn
    FROM ranked r JOIN med m ON m.iteration = r.iteration
), mad AS (
    SELECT iteration, (min(d) + max(d)) / 2 AS mad_ns
    FROM dev WHERE rn = floor((n + 1) / 2) OR rn = ceil((n + 1) / 2) GROUP BY iteration
)
SELECT d.iteration, d.trace, d.dur_ns, d.median_ns, m.mad_ns,
       (d.dur_ns - d.median_ns) / nullif(m.mad_ns, 0) AS straggler_score,
       row_number() OVER (PARTITION BY d.iteration ORDER BY d.dur_ns DESC, d.trace) AS place, d.n AS ranks
FROM dev d JOIN mad m ON m.iteration = d.iteration
ORDER BY d.iteration, place
