#define AT(x, y) ((y) * w + (x))
__kernel void stencil(__global const float *in, __global float *out, int w, int h) {
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[AT(x, y)] = in[AT(x, y)];
        return;
    }
    out[AT(x, y)] = 0.2f * (in[AT(x, y)] + in[AT(x - 1, y)] + in[AT(x + 1, y)] + in[AT(x, y - 1)]
                            + in[AT(x, y + 1)]);
}
