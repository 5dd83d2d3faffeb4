/* Loops whose cycles have no recorded edge of their own (for (;;), continue), exercising the cycle rule. */
__kernel void loops(__global int *out, int n) {
    int i = get_global_id(0);
    int acc = 0;
    int k = 0;
    for (;;) {
        k++;
        if (k > i % 5)
            break;
        if (k == 2)
            continue;
        acc += k;
    }
    while (1) {
        acc++;
        if (acc > 20)
            break;
    }
    do
        acc--;
    while (acc > n);
    out[i] = acc;
}
