package org.hetscope.capture.kernels.cfg;

import org.hetscope.capture.kernels.lang.KernelSourceException;
import org.hetscope.capture.kernels.lang.SourcePos;

/** A valid kernel the instrumenter cannot handle (goto, address-space casts, ...): it then runs uninstrumented. */
public final class UnsupportedKernelException extends KernelSourceException {
    public UnsupportedKernelException(SourcePos pos, String reason) {
        super(pos, reason);
    }
}
