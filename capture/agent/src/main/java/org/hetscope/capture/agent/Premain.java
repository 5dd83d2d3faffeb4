package org.hetscope.capture.agent;

import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;
import org.hetscope.capture.agent.advice.Advices;
import org.hetscope.capture.agent.advice.FunctionIdMapping;

/**
 * Entry point of {@code -javaagent:hetscope-agent.jar[=options]}: opens the trace, starts the flusher and the
 * command collector, and has ByteBuddy weave the recording code into {@code org.jocl.CL} when it is loaded.
 */
public final class Premain {
    private Premain() {}

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

    public static void premain(String args, Instrumentation inst) {
        try {
            start(AgentOptions.parse(args), inst);
        } catch (Exception e) {
            System.err.println("hetscope agent: not tracing: " + e.getMessage());
        }
    }

    public static void agentmain(String args, Instrumentation inst) {
        premain(args, inst);
    }

    static void start(AgentOptions o, Instrumentation inst) throws Exception {
        UUID uuid = UUID.randomUUID();
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("domain", "opencl");
        env.put("tracer_name", TraceMetadata.TRACER_NAME);
        env.put("tracer_major", TraceMetadata.FORMAT_MAJOR);
        env.put("tracer_minor", TraceMetadata.FORMAT_MINOR);
        env.put("hostname", hostname());
        env.put("pid", ProcessHandle.current().pid());
        env.put("java_version", System.getProperty("java.version"));
        env.put("command", ProcessHandle.current().info().commandLine().orElse(""));
        env.put("host_clock", "System.nanoTime");
        String metadata = TraceMetadata.text(uuid, clockOffset(), env);
        TraceWriter writer = new TraceWriter(o.out(), uuid, metadata, o.chunkBytes(), o.maxBytes(), o.flushMs());
        CommandCollector collector = new CommandCollector(writer);
        Tracer.writer = writer;
        Tracer.collector = collector;
        Tracer.deviceTimes = o.device();
        writer.start();
        collector.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            long s0 = System.nanoTime();
            collector.stop();
            writer.close();
            if (o.verbose()) {
                System.err.println("hetscope agent: trace in " + o.out() + " (" + writer.packetsWritten()
                        + " packets, " + Tracer.COMMANDS.get() + " commands, shutdown "
                        + (System.nanoTime() - s0) / 1000000 + " ms)");
            }
        }, "hetscope-trace-shutdown"));
        long t0 = System.nanoTime();
        install(inst, o.verbose());
        if (o.verbose()) {
            System.err.println("hetscope agent: instrumentation installed in " + (System.nanoTime() - t0) / 1000000
                    + " ms");
        }
    }

    private static void install(Instrumentation inst, boolean verbose) {
        AsmVisitorWrapper.ForDeclaredMethods methods = new AsmVisitorWrapper.ForDeclaredMethods();
        ElementMatcher.Junction<MethodDescription> base = isPublic().and(isStatic()).and(not(isNative()));
        ElementMatcher.Junction<MethodDescription> special = net.bytebuddy.matcher.ElementMatchers.none();
        for (Special s : SPECIAL) {
            ElementMatcher.Junction<MethodDescription> m = base.and(named(s.name())).and(takesArguments(s.args()));
            methods = methods.invokable(m, advice(s.advice()));
            special = special.or(m);
        }
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
        AsmVisitorWrapper wrapper = methods;
        List<String> errors = new ArrayList<>();
        new AgentBuilder.Default()
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                                        Throwable throwable) {
                        System.err.println("hetscope agent: cannot instrument " + typeName + ": " + throwable);
                        errors.add(typeName);
                    }

                    @Override
                    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module,
                                                 boolean loaded, DynamicType dynamicType) {
                        if (verbose) {
                            System.err.println("hetscope agent: instrumented " + type.getName());
                        }
                    }
                })
                .type(named("org.jocl.CL"))
                .transform((builder, type, loader, module, domain) -> builder.visit(wrapper))
                .installOn(inst);
    }

    private static Advice advice(Class<?> type) {
        return Advice.withCustomMapping().bind(new FunctionIdMapping()).to(type);
    }

    /** Wall-clock ns at monotonic 0, taken from the tightest of a few paired readings. */
    private static long clockOffset() {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            long a = System.nanoTime();
            Instant now = Instant.now();
            long b = System.nanoTime();
            if (b - a < best) {
                best = b - a;
                offset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (a + (b - a) / 2);
            }
        }
        return offset;
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
