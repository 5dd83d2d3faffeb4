__kernel void scan(__global const int *in, __global int *out, __local int *tmp, int n) {
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int ls = get_local_size(0);
    tmp[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < ls; off *= 2) {
        int v = lid >= off ? tmp[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n)
        out[gid] = tmp[lid];
}
