/* What device times cost the OpenCL implementation itself, with no agent and no Java: the launch-heavy example's
   loop (N launches of a 256-work-item kernel, 64 per group, then clFinish) written in C, in one of five modes:
     plain     the program as written: a queue without profiling, no events
     profq     the queue created with CL_QUEUE_PROFILING_ENABLE (as the agent switches it on), still no events
     release   profiling queue, an event per launch, released at once by the launching thread
     collect   profiling queue, an event per launch handed to a second thread that, every millisecond, takes the
               completed events in order, reads their four CL_PROFILING_COMMAND_* times and releases them
     after     profiling queue, an event per launch kept until clFinish, then all read and released by the
               launching thread (no second thread; memory grows with the launches)
   collect and after are the least a tracer that records every command's device times must do.
   Prints "mode loop_s total_s" (loop: first launch to clFinish; total: until the collector has released every
   event). Build and run: bench/capture/pocl_floor.sh (alternates the modes in separate processes). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

#define RING (1 << 16)
static cl_event ring[RING];
static volatile long head, tail; /* head: next slot written by the launcher; tail: next slot collected */
static volatile int done;
static long sum;

static void read_times(cl_event e) {
    for (int t = 0; t < 4; t++) {
        cl_ulong v = 0;
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + t, sizeof v, &v, NULL);
        sum += (long) v;
    }
    clReleaseEvent(e);
}

static void *collector(void *arg) {
    (void) arg;
    while (!done || tail < head) {
        cl_int st = 1;
        if (tail < head) {
            clGetEventInfo(ring[tail % RING], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        }
        if (st > CL_COMPLETE) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            continue;
        }
        read_times(ring[tail % RING]);
        __sync_synchronize();
        tail++;
    }
    return NULL;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "plain";
    int n = argc > 2 ? atoi(argv[2]) : 200000;
    int prof = strcmp(mode, "plain") != 0;
    int collect = !strcmp(mode, "collect");
    int after = !strcmp(mode, "after");
    int events = collect || after || !strcmp(mode, "release");
    cl_event *kept = after ? malloc(sizeof(cl_event) * (size_t) n) : NULL;
    cl_platform_id p;
    cl_device_id d;
    cl_int err;
    if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL)) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, prof ? props : NULL, &err);
    const char *src = "__kernel void inc(__global int* x) { x[get_global_id(0)] += 1; }";
    cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err);
    clBuildProgram(pr, 0, NULL, NULL, NULL, NULL);
    cl_kernel k = clCreateKernel(pr, "inc", &err);
    int host[256] = {0};
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t g = 256, l = 64;
    pthread_t th;
    if (collect) {
        pthread_create(&th, NULL, collector, NULL);
    }
    double t0 = now();
    for (int i = 0; i < n; i++) {
        cl_event e;
        if (collect) {
            while (head - tail >= RING) {
                sched_yield();
            }
        }
        if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, events ? &e : NULL) != CL_SUCCESS) {
            fprintf(stderr, "launch %d failed\n", i);
            return 1;
        }
        if (collect) {
            ring[head % RING] = e;
            __sync_synchronize();
            head++;
        } else if (after) {
            kept[i] = e;
        } else if (events) {
            clReleaseEvent(e);
        }
    }
    clFinish(q);
    double t1 = now();
    if (collect) {
        done = 1;
        pthread_join(th, NULL);
    }
    for (int i = 0; after && i < n; i++) {
        read_times(kept[i]);
    }
    double t2 = now();
    clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
    if (host[0] != n || host[255] != n) {
        fprintf(stderr, "wrong result %d\n", host[0]);
        return 1;
    }
    printf("%s %.4f %.4f\n", mode, t1 - t0, t2 - t0);
    return 0;
}
