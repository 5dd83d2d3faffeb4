/* Two kernels sharing a helper declared by a prototype first. */
float scale(float x, float f);

float scale(float x, float f) {
    return x * f;
}

__kernel void first(__global float *a, float f) {
    int i = get_global_id(0);
    a[i] = scale(a[i], f);
}

__kernel void second(__global float *a) {
    int i = get_global_id(0);
    if (i % 2 == 0)
        a[i] = scale(a[i], 2.0f) + 1.0f;
}
