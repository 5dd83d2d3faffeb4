__kernel void histogram(__global const uint *data, __global uint *hist, __local uint *bins, int n, int nbins) {
    int lid = get_local_id(0);
    for (int b = lid; b < nbins; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i] % nbins]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < nbins; b += get_local_size(0)) {
        uint v = bins[b];
        if (v != 0)
            atomic_add(&hist[b], v);
    }
}
