package org.hetscope.capture.agent.advice;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.method.ParameterDescription;
import org.hetscope.capture.agent.ClFunctions;

/** Binds {@link FunctionId} to a constant per instrumented method, so no name lookup happens at run time. */
public final class FunctionIdMapping implements Advice.OffsetMapping.Factory<FunctionId> {
    @Override
    public Class<FunctionId> getAnnotationType() {
        return FunctionId.class;
    }

    @Override
    public Advice.OffsetMapping make(ParameterDescription.InDefinedShape target,
                                     AnnotationDescription.Loadable<FunctionId> annotation, AdviceType adviceType) {
        return (instrumentedType, instrumentedMethod, assigner, argumentHandler, sort) ->
                Advice.OffsetMapping.Target.ForStackManipulation.of(ClFunctions.id(instrumentedMethod.getName()));
    }
}
