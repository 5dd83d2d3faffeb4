package org.hetscope.formats.paje.starpu;

import java.util.List;

/**
 * One record of StarPU's tasks.rec. Tasks never run on a worker ({@code _starpu_sync_task},
 * {@code starpu_data_unregister}) have no worker, node, start or end ({@code null}).
 *
 * @param dependsOn JobIds this task depends on; {@code depLabels} gives {@code task} or {@code ghost} for each
 */
public record TaskRecord(String name, String model, long jobId, Long submitOrder, Integer priority,
                         List<Long> dependsOn, List<String> depLabels, Integer workerId, Integer memoryNode,
                         Long submitTs, Long startTs, Long endTs, List<String> handles, List<String> modes,
                         List<Long> sizes, String footprint, String parameters, long line) {

    public boolean executed() {
        return workerId != null && startTs != null && endTs != null;
    }
}
