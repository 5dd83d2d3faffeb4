package org.hetscope.cli.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hetscope advise} on a rocprof results.csv without wave_size (issue 24 defect 7), end to end: it says the
 * wavefront size is unknown instead of claiming work-groups fill it, and takes it from --warp-size or a device
 * profile.
 */
class AdviseCommandTest {
    @Test
    void unknownWavefrontThenGiven(@TempDir Path dir) throws Exception {
        StringBuilder b = new StringBuilder("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,"
                + "arch_vgpr,accum_vgpr,sgpr,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,VALUUtilization\n");
        long t = 1_000_000;
        for (int i = 0; i < 8; i++) {
            b.append(i).append(",\"k(float*) [clone .kd]\",1,0,").append(i).append(",9,9,65536,96,0,0,8,0,16,0,0,")
                    .append(t - 500).append(',').append(t).append(',').append(t + 20_000).append(',')
                    .append(t + 20_100).append(",30.0\n");
            t += 30_000;
        }
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, b.toString());
        Path store = dir.resolve("r.hetscope");
        CliRun imp = CliRun.of("import", csv.toString(), "-o", store.toString());
        assertEquals(0, imp.exitCode(), imp.err());

        CliRun unknown = CliRun.of("advise", store.toString(), "--csv");
        assertEquals(0, unknown.exitCode(), unknown.err());
        assertFalse(unknown.out().contains("is a multiple of the"), unknown.out());
        assertTrue(unknown.out().contains("warp-size-unknown") && unknown.out().contains("--warp-size"),
                unknown.out());

        CliRun given = CliRun.of("advise", store.toString(), "--warp-size", "64", "--csv");
        assertEquals(0, given.exitCode(), given.err());
        assertTrue(given.out().contains("work-group size 96 is not a multiple of the wavefront size 64"),
                given.out());
        assertFalse(given.out().contains("warp-size-unknown"), given.out());

        Path profile = dir.resolve("mi100.properties");
        Files.writeString(profile, "# AMD CDNA: 64-wide wavefronts\nwarpSize=64\n");
        CliRun fromProfile = CliRun.of("advise", store.toString(), "--device-profile", profile.toString(), "--csv");
        assertEquals(0, fromProfile.exitCode(), fromProfile.err());
        assertEquals(given.out(), fromProfile.out());

        CliRun bad = CliRun.of("advise", store.toString(), "--warp-size", "0");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--warp-size"), bad.err());
    }
}
