/* A return between the start of a counted region and a later access (the case Fig. 3's placement overcounts). */
__kernel void early(__global int *a, __global int *b, int n) {
    int i = get_global_id(0);
    if (i < n) {
        a[i] = 1;
        if (i % 3 == 0)
            return;
        b[i] = a[i] + 1;
    }
}
