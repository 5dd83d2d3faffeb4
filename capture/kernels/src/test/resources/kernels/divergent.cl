inline int weight(int v) {
    if (v > 20)
        return 3;
    return 1;
}

__kernel void divergent(__global const int *in, __global int *out, int n) {
    int i = get_global_id(0);
    if (i >= n)
        return;
    int v = in[i];
    int acc = 0;
    switch (v % 4) {
        case 0:
            acc = v * 2;
            break;
        case 1:
            for (int k = 0; k < v % 7; k++)
                acc += k;
            break;
        case 2:
            do {
                acc += weight(v);
                v /= 2;
            } while (v > 5);
            break;
        default:
            acc = -1;
    }
    if (i % 2 == 0 && v > 10) {
        acc += 100;
    } else if (v < 0) {
        acc = 0;
    }
    out[i] = acc;
}
