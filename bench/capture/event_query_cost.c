/* The C counterpart of EventQueryCost.java: launch with events, read four profiling times, release.
   Build and run: gcc -O2 -o /tmp/evq bench/capture/event_query_cost.c -lOpenCL && /tmp/evq */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(){
  cl_platform_id p; clGetPlatformIDs(1,&p,NULL); cl_device_id d; clGetDeviceIDs(p,CL_DEVICE_TYPE_ALL,1,&d,NULL);
  cl_context c=clCreateContext(NULL,1,&d,NULL,NULL,NULL);
  cl_queue_properties props[]={CL_QUEUE_PROPERTIES,CL_QUEUE_PROFILING_ENABLE,0};
  cl_command_queue q=clCreateCommandQueueWithProperties(c,d,props,NULL);
  const char*src="__kernel void inc(__global int* x){x[get_global_id(0)]+=1;}";
  cl_program pr=clCreateProgramWithSource(c,1,&src,NULL,NULL); clBuildProgram(pr,0,NULL,NULL,NULL,NULL);
  cl_kernel k=clCreateKernel(pr,"inc",NULL); cl_mem m=clCreateBuffer(c,CL_MEM_READ_WRITE,1024,NULL,NULL);
  clSetKernelArg(k,0,sizeof(cl_mem),&m);
  int n=30000; cl_event*ev=malloc(n*sizeof(cl_event)); size_t g=256,l=64;
  for(int rep=0;rep<3;rep++){
    double t0=now();
    for(int i=0;i<n;i++) clEnqueueNDRangeKernel(q,k,1,NULL,&g,&l,0,NULL,&ev[i]);
    clFinish(q); double t1=now();
    cl_ulong v; for(int i=0;i<n;i++) for(int t=0;t<4;t++) clGetEventProfilingInfo(ev[i],CL_PROFILING_COMMAND_QUEUED+t,8,&v,NULL);
    double t2=now();
    for(int i=0;i<n;i++) clReleaseEvent(ev[i]);
    double t3=now();
    double t4=now(); for(int i=0;i<n;i++) clEnqueueNDRangeKernel(q,k,1,NULL,&g,&l,0,NULL,NULL); clFinish(q); double t5=now();
    printf("launch with event %.2f us, 4 queries %.3f us/event, release %.3f us/event, launch no event %.2f us\n",(t1-t0)/1e3/n,(t2-t1)/1e3/n,(t3-t2)/1e3/n,(t5-t4)/1e3/n);
  }
}
