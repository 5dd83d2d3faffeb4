/* OpenCL port of the Sarek kNN kernel (Bourgoin et al., Fig. 1), written the same way. */
__kernel void compute(__global const int *trainingSet, __global const int *data, __global int *res,
                      int setSize, int dataSize) {
    int computeId = get_local_id(0) + get_local_size(0) * get_group_id(0);
    if (computeId < setSize) {
        int diff = 0;
        int toAdd = 0;
        int i = 0;
        while (i < dataSize) {
            toAdd = data[i] - trainingSet[computeId * dataSize + i];
            diff = diff + (toAdd * toAdd);
            i = i + 1;
        }
        res[computeId] = diff;
    } else {
        return;
    }
}
