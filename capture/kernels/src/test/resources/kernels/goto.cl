__kernel void clampneg(__global int *a, int n) {
    int i = get_global_id(0);
    if (i >= n)
        goto done;
    if (a[i] < 0)
        a[i] = 0;
done:
    ;
}
