import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Two builds of capture/kernels in one process (one class loader each, one OpenCL session each), so that their
 * two-phase recording passes (trip counts) run interleaved under the same machine load: per kernel, REPS rounds
 * of plain A, trace A, plain B, trace B after 2 discarded rounds; medians of device times.
 * Usage: java -cp DEPENDENCIES CompareBuilds.java CLASSES_A CLASSES_B SCALE|large REPS
 * (CLASSES_x: the build's classes and test-classes folders, separated by ':').
 */
public class CompareBuilds {
    record Build(Object session, List<Object> kernels, ClassLoader loader) {
        static Build load(String dirs, String size) throws Exception {
            List<URL> urls = new ArrayList<>();
            for (String d : dirs.split(":")) {
                urls.add(Path.of(d).toUri().toURL());
            }
            // the parent holds JOCL, whose native library loads once per process
            ClassLoader cl = new URLClassLoader(urls.toArray(URL[]::new), CompareBuilds.class.getClassLoader());
            Class<?> suite = cl.loadClass("org.hetscope.capture.kernels.Suite");
            List<Object> kernels = new ArrayList<>();
            if (size.equals("large")) {
                kernels.addAll((List<?>) suite.getMethod("large").invoke(null));
            } else {
                kernels.addAll((List<?>) suite.getMethod("all", int.class).invoke(null, Integer.parseInt(size)));
                kernels.set(6, suite.getMethod("knn", int.class, int.class, int.class, int.class)
                        .invoke(null, 5000, 784, 5120, 256));
            }
            Object session = cl.loadClass("org.hetscope.capture.kernels.run.OpenClSession").getMethod("open")
                    .invoke(null);
            return new Build(session, kernels, cl);
        }

        Object runner(Object kernel) throws Exception {
            Class<?> runner = loader.loadClass("org.hetscope.capture.kernels.run.KernelRunner");
            return runner.getConstructor(session.getClass(), String.class, String.class, String.class)
                    .newInstance(session, call(kernel, "file").toString(), call(kernel, "source"),
                            call(kernel, "kernel"));
        }

        Object twoPhaseWithTripCounts() throws Exception {
            Class<?> options = loader.loadClass("org.hetscope.capture.kernels.run.TraceOptions");
            Class<?> strategy = loader.loadClass("org.hetscope.capture.kernels.run.TraceOptions$Strategy");
            Object twoPhase = strategy.getEnumConstants()[0];
            return call(options.getMethod("of", strategy, boolean.class).invoke(null, twoPhase, true),
                    "withTripCounts");
        }
    }

    static Object call(Object target, String name, Object... args) throws Exception {
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                return m.invoke(target, args);
            }
        }
        throw new NoSuchMethodException(name);
    }

    public static void main(String[] argv) throws Exception {
        String size = argv[2];
        int reps = Integer.parseInt(argv[3]);
        Build[] builds = {Build.load(argv[0], size), Build.load(argv[1], size)};
        List<Double> ratioA = new ArrayList<>();
        List<Double> ratioB = new ArrayList<>();
        for (int i = 0; i < builds[0].kernels().size(); i++) {
            Object[] runner = new Object[2];
            Object[] args = new Object[2];
            Object[] range = new Object[2];
            Object[] options = new Object[2];
            String name = "";
            for (int b = 0; b < 2; b++) {
                Object k = builds[b].kernels().get(i);
                name = (String) call(k, "name");
                runner[b] = builds[b].runner(k);
                args[b] = ((Supplier<?>) call(k, "args")).get();
                range[b] = call(k, "range");
                options[b] = builds[b].twoPhaseWithTripCounts();
            }
            List<List<Long>> plain = List.of(new ArrayList<>(), new ArrayList<>());
            List<List<Long>> record = List.of(new ArrayList<>(), new ArrayList<>());
            for (int r = 0; r < reps + 2; r++) {
                for (int b = 0; b < 2; b++) {
                    long p = (long) call(call(runner[b], "runPlain", args[b], range[b]), "duration");
                    Object trace = call(runner[b], "trace", args[b], range[b], options[b]);
                    if (!(boolean) call(trace, "valid")) {
                        throw new IllegalStateException(name + ": invalid trace");
                    }
                    if (r >= 2) {
                        plain.get(b).add(p);
                        record.get(b).add((long) call(trace, "recordNanos"));
                    }
                }
            }
            double pa = median(plain.get(0));
            double ra = median(record.get(0));
            double pb = median(plain.get(1));
            double rb = median(record.get(1));
            ratioA.add(ra / pa);
            ratioB.add(rb / pb);
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.2f |%n", name,
                    pa / 1e3, ra / 1e3, ra / pa, pb / 1e3, rb / 1e3, rb / pb, rb / ra);
        }
        System.out.printf(Locale.ROOT, "median over kernels of recording/plain: A %.2fx, B %.2fx%n",
                medianOf(ratioA), medianOf(ratioB));
        System.exit(0); // two OpenCL sessions; nothing to keep
    }

    static double median(List<Long> v) {
        return medianOf(v.stream().map(Long::doubleValue).toList());
    }

    static double medianOf(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
