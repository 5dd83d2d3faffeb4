-- One (category, name) across the traces of a dataset: in how many traces it ran, its total time there, and how
-- unevenly that time falls on them: the least and most of one trace, their mean, and max/mean (1 = even).
WITH per_trace AS (
    SELECT trace, category, name, count(*) AS count, CAST(sum(dur) AS BIGINT) AS total_ns
    FROM slice
    WHERE category IN ('kernel', 'cpu_op', 'api', 'task', 'memcpy', 'memset')
    GROUP BY trace, category, name
)
SELECT category, name, count(*) AS traces, CAST(sum(count) AS BIGINT) AS count, CAST(sum(total_ns) AS BIGINT) AS total_ns,
       min(total_ns) AS min_trace_ns, max(total_ns) AS max_trace_ns,
       CAST(sum(total_ns) AS DOUBLE) / count(*) AS mean_trace_ns,
       max(total_ns) / nullif(CAST(sum(total_ns) AS DOUBLE) / count(*), 0) AS imbalance
FROM per_trace
GROUP BY category, name
ORDER BY category, total_ns DESC, name
