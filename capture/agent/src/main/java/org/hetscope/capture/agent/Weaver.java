package org.hetscope.capture.agent;

import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import org.hetscope.capture.agent.advice.Advices;
import org.hetscope.capture.agent.advice.FunctionIdMapping;

/**
 * Weaves the recording code ({@link Advices}) into the public {@code cl*} methods of JOCL's {@code org.jocl.CL}
 * with ByteBuddy: a specific advice for the calls whose arguments are recorded, and generic ones (int result,
 * object result, other enqueues) for the rest. Only loaded when the woven class is not cached yet.
 */
final class Weaver {
    private Weaver() {}

    private record Special(String name, int args, Class<?> advice) {}

    private static final List<Special> SPECIAL = List.of(
            new Special("clGetPlatformIDs", 3, Advices.GetPlatformIDs.class),
            new Special("clGetDeviceIDs", 5, Advices.GetDeviceIDs.class),
            new Special("clCreateContext", 6, Advices.CreateContext.class),
            new Special("clCreateContextFromType", 5, Advices.CreateContextFromType.class),
            new Special("clCreateCommandQueue", 4, Advices.CreateCommandQueue.class),
            new Special("clCreateCommandQueueWithProperties", 4, Advices.CreateCommandQueueWithProperties.class),
            new Special("clCreateBuffer", 5, Advices.CreateBuffer.class),
            new Special("clRetainMemObject", 1, Advices.RetainMem.class),
            new Special("clReleaseMemObject", 1, Advices.ReleaseMem.class),
            new Special("clCreateProgramWithSource", 5, Advices.CreateProgramWithSource.class),
            new Special("clCreateProgramWithBinary", 7, Advices.CreateProgramWithBinary.class),
            new Special("clBuildProgram", 6, Advices.BuildProgram.class),
            new Special("clCompileProgram", 9, Advices.CompileProgram.class),
            new Special("clCreateKernel", 3, Advices.CreateKernel.class),
            new Special("clCreateKernelsInProgram", 4, Advices.CreateKernelsInProgram.class),
            new Special("clSetKernelArg", 4, Advices.SetKernelArg.class),
            new Special("clEnqueueNDRangeKernel", 9, Advices.NDRangeKernel.class),
            new Special("clEnqueueReadBuffer", 9, Advices.ReadWriteBuffer.class),
            new Special("clEnqueueWriteBuffer", 9, Advices.ReadWriteBuffer.class),
            new Special("clEnqueueCopyBuffer", 9, Advices.CopyBuffer.class),
            new Special("clEnqueueFillBuffer", 9, Advices.FillBuffer.class),
            new Special("clEnqueueMapBuffer", 10, Advices.MapBuffer.class),
            new Special("clEnqueueUnmapMemObject", 6, Advices.UnmapMemObject.class),
            new Special("clFinish", 1, Advices.Finish.class),
            new Special("clWaitForEvents", 2, Advices.WaitForEvents.class),
            new Special("clReleaseEvent", 1, Advices.ReleaseEvent.class));

    /** Weaves the advice into JOCL's CL class with ByteBuddy. */
    static byte[] weave(byte[] bytes, ClassLoader loader) {
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of("org.jocl.CL", bytes),
                loader == null ? ClassFileLocator.ForClassLoader.ofSystemLoader()
                        : ClassFileLocator.ForClassLoader.of(loader));
        TypeDescription type = TypePool.Default.of(locator).describe("org.jocl.CL").resolve();
        return new ByteBuddy().with(TypeValidation.DISABLED).decorate(type, locator).visit(wrapper()).make()
                .getBytes();
    }

    private static AsmVisitorWrapper wrapper() {
        AsmVisitorWrapper.ForDeclaredMethods methods = new AsmVisitorWrapper.ForDeclaredMethods();
        ElementMatcher.Junction<MethodDescription> base = isPublic().and(isStatic()).and(not(isNative()));
        ElementMatcher.Junction<MethodDescription> special = net.bytebuddy.matcher.ElementMatchers.none();
        for (Special s : SPECIAL) {
            ElementMatcher.Junction<MethodDescription> m = base.and(named(s.name())).and(takesArguments(s.args()));
            methods = methods.invokable(m, advice(s.advice()));
            special = special.or(m);
        }
        // every other creator of a memory object, whatever its overload: the hook asks OpenCL what was made
        ElementMatcher.Junction<MethodDescription> memObject = base.and(not(special))
                .and(net.bytebuddy.matcher.ElementMatchers.nameStartsWith("clCreate"))
                .and(returns(named("org.jocl.cl_mem")));
        methods = methods.invokable(memObject, advice(Advices.MemObject.class));
        special = special.or(memObject);
        ElementMatcher.Junction<MethodDescription> traced = base.and(not(special))
                .and(new ElementMatcher<MethodDescription>() {
                    @Override
                    public boolean matches(MethodDescription target) {
                        return ClFunctions.traced(target.getName());
                    }
                });
        ElementMatcher.Junction<MethodDescription> enqueueWithEvent = net.bytebuddy.matcher.ElementMatchers
                .<MethodDescription>nameStartsWith("clEnqueue").and(returns(int.class))
                .and(new ElementMatcher<MethodDescription>() {
                    @Override
                    public boolean matches(MethodDescription target) {
                        var ps = target.getParameters();
                        return !ps.isEmpty()
                                && ps.get(ps.size() - 1).getType().asErasure().getName().equals("org.jocl.cl_event");
                    }
                });
        methods = methods.invokable(traced.and(enqueueWithEvent), advice(Advices.OtherEnqueue.class));
        methods = methods.invokable(traced.and(not(enqueueWithEvent)).and(returns(int.class)),
                advice(Advices.IntCall.class));
        methods = methods.invokable(traced.and(not(enqueueWithEvent)).and(not(returns(int.class))),
                advice(Advices.ObjectCall.class));
        return methods;
    }

    private static Advice advice(Class<?> type) {
        return Advice.withCustomMapping().bind(new FunctionIdMapping()).to(type);
    }

}
