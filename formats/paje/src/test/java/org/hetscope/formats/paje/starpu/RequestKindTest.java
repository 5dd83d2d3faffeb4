package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Request kinds as numbered by StarPU 1.3 (the fixtures) and renumbered by 1.4 (spec section 3). */
class RequestKindTest {
    @Test
    void numberingDependsOnTheConfiguredVersion() {
        assertEquals(List.of("fetch", "prefetch", "idle_fetch", "kind_3"),
                List.of("0", "1", "2", "3").stream().map(i -> StarpuImport.requestKind("1.3.10", i)).toList());
        assertEquals(List.of("fetch", "task_prefetch", "prefetch", "idle_fetch"),
                List.of("0", "1", "2", "3").stream().map(i -> StarpuImport.requestKind("1.4", i)).toList());
        assertEquals("1.3", StarpuImport.VERSION);
    }
}
