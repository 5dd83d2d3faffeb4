-- hetscope store schema, version 4. Documented in docs/schema.md; keep both in step.
-- Times are BIGINT nanoseconds on one timeline per store. Ids are dense per table, starting at 1.
CREATE TABLE trace_info(key VARCHAR, value VARCHAR);
CREATE TABLE skipped(reason VARCHAR, severity VARCHAR, detail VARCHAR, location VARCHAR, count BIGINT);
-- source: each input trace of an import, and how its own clock was put on the store's timeline (store time =
-- own time + clock_adjust_ns + round(clock_drift * (own time - clock_drift_from_ns))); source_skipped: skipped
-- split by source (skipped keeps the totals).
CREATE TABLE source(id BIGINT, path VARCHAR, format VARCHAR, clock_domain VARCHAR, clock_origin_ns BIGINT,
                    clock_adjust_ns BIGINT, clock_drift DOUBLE, clock_drift_from_ns BIGINT, clock_method VARCHAR,
                    clock_residual_ns BIGINT, clock_matches BIGINT, clock_detail VARCHAR);
CREATE TABLE source_skipped(source_id BIGINT, reason VARCHAR, severity VARCHAR, detail VARCHAR, location VARCHAR, count BIGINT);
CREATE TABLE process(id BIGINT, pid BIGINT, name VARCHAR);
CREATE TABLE thread(id BIGINT, tid BIGINT, process_id BIGINT, name VARCHAR);
CREATE TABLE device(id BIGINT, kind VARCHAR, ordinal INTEGER, vendor VARCHAR, name VARCHAR, compute_units INTEGER,
                    memory_bytes BIGINT, warp_size INTEGER, peak_flops DOUBLE, peak_bandwidth DOUBLE,
                    clock_mhz DOUBLE, properties VARCHAR);
CREATE TABLE track(id BIGINT, parent_id BIGINT, kind VARCHAR, name VARCHAR, process_id BIGINT, thread_id BIGINT,
                   device_id BIGINT, stream BIGINT, sort_index INTEGER, unit VARCHAR);
CREATE TABLE slice(id BIGINT, track_id BIGINT, ts BIGINT, dur BIGINT, name VARCHAR, category VARCHAR,
                   source_category VARCHAR, depth INTEGER, parent_id BIGINT, correlation_id BIGINT, args VARCHAR);
CREATE TABLE instant(id BIGINT, track_id BIGINT, ts BIGINT, name VARCHAR, category VARCHAR,
                     source_category VARCHAR, args VARCHAR);
CREATE TABLE counter(track_id BIGINT, ts BIGINT, value DOUBLE);
CREATE TABLE flow(id BIGINT, from_slice_id BIGINT, to_slice_id BIGINT, kind VARCHAR, correlation_id BIGINT,
                  rule VARCHAR);
-- kernel: the dispatch attributes, with each full kernel name stored once (Nsight's demangled names run to
-- hundreds of bytes and repeat millions of times); queries read the view, which joins the name back.
CREATE TABLE kernel_dispatch(slice_id BIGINT, device_id BIGINT, stream BIGINT, correlation_id BIGINT,
                    grid_x BIGINT, grid_y BIGINT, grid_z BIGINT, block_x BIGINT, block_y BIGINT, block_z BIGINT,
                    registers_per_thread INTEGER, shared_static BIGINT, shared_dynamic BIGINT, full_name_id BIGINT);
CREATE TABLE kernel_name(id BIGINT, name VARCHAR);
CREATE VIEW kernel AS
    SELECT d.slice_id, d.device_id, d.stream, d.correlation_id, d.grid_x, d.grid_y, d.grid_z, d.block_x, d.block_y,
           d.block_z, d.registers_per_thread, d.shared_static, d.shared_dynamic, n.name AS full_name
    FROM kernel_dispatch d LEFT JOIN kernel_name n ON n.id = d.full_name_id;
CREATE TABLE kernel_counter(slice_id BIGINT, name VARCHAR, value DOUBLE);
CREATE TABLE transfer(id BIGINT, slice_id BIGINT, ts BIGINT, dur BIGINT, bytes BIGINT, kind VARCHAR,
                      src_device_id BIGINT, dst_device_id BIGINT, src_node_id BIGINT, dst_node_id BIGINT,
                      block_id BIGINT, correlation_id BIGINT);
CREATE TABLE memory_node(id BIGINT, name VARCHAR, device_id BIGINT, kind VARCHAR);
CREATE TABLE memory_block(id BIGINT, handle VARCHAR, name VARCHAR, size_bytes BIGINT, home_node_id BIGINT,
                          coordinates VARCHAR);
CREATE TABLE residency(block_id BIGINT, node_id BIGINT, ts BIGINT, dur BIGINT, state VARCHAR);
CREATE TABLE task(id BIGINT, slice_id BIGINT, job_id BIGINT, name VARCHAR, worker_track_id BIGINT, node_id BIGINT,
                  submit_ts BIGINT, start_ts BIGINT, end_ts BIGINT, priority INTEGER);
CREATE TABLE task_access(task_id BIGINT, block_id BIGINT, mode VARCHAR);
CREATE TABLE task_dependency(from_task_id BIGINT, to_task_id BIGINT);
