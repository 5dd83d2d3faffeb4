-- hetscope standard library: launch latency along API -> GPU activity flows. Documented in docs/stdlib.md.

-- One row per launch flow: GPU activity start minus the start of the API call that launched it.
CREATE OR REPLACE TEMP VIEW hs_launch_latency AS
SELECT f.correlation_id, f.rule, a.id AS api_slice_id, a.name AS api_function, a.ts AS api_ts,
       g.id AS activity_slice_id, g.name AS activity, g.category AS activity_category, g.ts AS activity_ts,
       g.ts - a.ts AS latency_ns
FROM flow f JOIN slice a ON a.id = f.from_slice_id JOIN slice g ON g.id = f.to_slice_id
WHERE f.kind = 'launch';

-- Per launching API function, activity category and flow rule (so that guessed links stay visible).
CREATE OR REPLACE TEMP VIEW hs_launch_latency_stats AS
SELECT api_function, activity_category, rule, count(*) AS count, min(latency_ns) AS min_ns,
       max(latency_ns) AS max_ns, avg(latency_ns) AS mean_ns, hs_stddev_pop(latency_ns) AS stddev_ns,
       quantile_disc(latency_ns, 0.5) AS p50_ns, quantile_disc(latency_ns, 0.95) AS p95_ns
FROM hs_launch_latency GROUP BY api_function, activity_category, rule;
