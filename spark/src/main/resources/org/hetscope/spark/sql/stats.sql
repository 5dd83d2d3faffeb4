-- hetscope cross-trace analyses (docs/scale.md), one source for DuckDB and Spark SQL (Analyses renders it).
-- Kernel, operator and API statistics per trace (one trace per rank) and (category, name): count, total, min, max
-- and mean duration, the share of the trace's time in that category, and the name's place by total time within
-- its trace and category (1 = most time). Ties are broken by name so that every engine lists the same rows.
WITH figures AS (
    SELECT trace, category, name, count(*) AS count, CAST(sum(dur) AS BIGINT) AS total_ns, min(dur) AS min_ns,
           max(dur) AS max_ns
    FROM slice
    WHERE category IN ('kernel', 'cpu_op', 'api', 'task', 'memcpy', 'memset')
    GROUP BY trace, category, name
)
SELECT trace, category, name, count, total_ns, min_ns, max_ns,
       CAST(total_ns AS DOUBLE) / count AS mean_ns,
       100 * CAST(total_ns AS DOUBLE) / nullif(sum(total_ns) OVER (PARTITION BY trace, category), 0) AS share_pct,
       row_number() OVER (PARTITION BY trace, category ORDER BY total_ns DESC, name) AS place
FROM figures
ORDER BY trace, category, place
