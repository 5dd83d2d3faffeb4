/* The kNN kernel with dataSize read from a buffer, so a test can change it between the two tracing passes. */
__kernel void compute(__global const int *trainingSet, __global const int *data, __global int *res,
                      int setSize, __global const int *sizes) {
    int dataSize = sizes[0];
    int computeId = get_local_id(0) + get_local_size(0) * get_group_id(0);
    if (computeId < setSize) {
        int diff = 0;
        int i = 0;
        while (i < dataSize) {
            int toAdd = data[i] - trainingSet[computeId * dataSize + i];
            diff = diff + (toAdd * toAdd);
            i = i + 1;
        }
        res[computeId] = diff;
    } else {
        return;
    }
}
