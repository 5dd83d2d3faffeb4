package org.hetscope.model;

/** What sort of processor a {@link Device} is. */
public enum DeviceKind { CPU, GPU, ACCELERATOR }
