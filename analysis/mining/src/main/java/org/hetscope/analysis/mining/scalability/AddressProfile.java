package org.hetscope.analysis.mining.scalability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.analysis.mining.memtrace.AccessEvent;

/**
 * Per-address %time and %accesses of a run (spec section 7.1): %time(@) = 100 * latency of accesses to @ / all
 * latency; %acc(@) = 100 * accesses to @ / all accesses. The address is the PC (instruction hotspots) or the data
 * address; events without a data address count in |ET| but belong to no address then.
 */
public final class AddressProfile {
    private AddressProfile() {}

    public static List<AddressFeature> of(List<AccessEvent> et, boolean dataAddress) {
        Map<Long, long[]> byAddress = new TreeMap<>(Long::compareUnsigned);
        Map<Long, String> function = new TreeMap<>(Long::compareUnsigned);
        long totalLatency = 0;
        for (AccessEvent e : et) {
            totalLatency += e.latency();
            Long a = dataAddress ? e.dataAddress() : Long.valueOf(e.pc());
            if (a == null) {
                continue;
            }
            long[] s = byAddress.computeIfAbsent(a, k -> new long[2]);
            s[0]++;
            s[1] += e.latency();
            if (e.function() != null) {
                function.putIfAbsent(a, e.function());
            }
        }
        List<AddressFeature> out = new ArrayList<>(byAddress.size());
        int n = et.size();
        for (Map.Entry<Long, long[]> en : byAddress.entrySet()) {
            long[] s = en.getValue();
            double time = totalLatency == 0 ? 0 : 100.0 * s[1] / totalLatency;
            out.add(new AddressFeature(en.getKey(), function.get(en.getKey()), time, 100.0 * s[0] / n, s[0], s[1]));
        }
        return out;
    }
}
