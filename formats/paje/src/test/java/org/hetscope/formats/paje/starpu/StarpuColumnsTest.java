package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How the StarPU import reads a transfer link key. */
class StarpuColumnsTest {
    @Test
    void onlyStarpusOwnSpellingOfACommunicationIdIsOne() {
        assertEquals(0, StarpuImport.comId("com_0"));
        assertEquals(12345, StarpuImport.comId("com_12345"));
        assertEquals(Long.MAX_VALUE, StarpuImport.comId("com_" + Long.MAX_VALUE));
        for (String other : new String[] {"com_", "com_007", "com_-5", "com_1x", "com_99999999999999999999",
                "cam_1", "com_ 1", "1"}) {
            assertEquals(-1, StarpuImport.comId(other), other);
        }
    }
}
