/**
 * Reader of the Chrome Trace Event JSON format, as written by PyTorch/Kineto, rocprof, HTA and many tools,
 * with Kineto's GPU semantics (runtime calls, kernels, copies, fills, syncs, correlation flows, device properties)
 * mapped onto the hetscope model.
 */
package org.hetscope.formats.chrome;
