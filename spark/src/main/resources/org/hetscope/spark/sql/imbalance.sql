-- Load imbalance of the dataset: max/mean of the ranks' busy time (ranks.sql; 1 = perfectly even), with the
-- least and most loaded rank (ties: the first by name).
WITH r AS (
    SELECT trace, busy_ns,
           row_number() OVER (ORDER BY busy_ns DESC, trace) AS top, row_number() OVER (ORDER BY busy_ns, trace) AS bottom
    FROM ({{ranks}}) ranks
)
SELECT count(*) AS ranks, min(busy_ns) AS min_busy_ns, max(busy_ns) AS max_busy_ns,
       CAST(sum(busy_ns) AS DOUBLE) / count(*) AS mean_busy_ns,
       max(busy_ns) / nullif(CAST(sum(busy_ns) AS DOUBLE) / count(*), 0) AS imbalance,
       max(CASE WHEN top = 1 THEN trace END) AS most_loaded, max(CASE WHEN bottom = 1 THEN trace END) AS least_loaded
FROM r
