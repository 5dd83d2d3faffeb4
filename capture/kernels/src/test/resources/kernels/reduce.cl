#define ZERO 0.0f
__kernel void reduce(__global const float *in, __global float *out, __local float *scratch, int n) {
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int ls = get_local_size(0);
    scratch[lid] = gid < n ? in[gid] : ZERO;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
