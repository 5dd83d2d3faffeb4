package org.hetscope.store;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.Instant;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Residency;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.TaskDependency;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.Transfer;

/**
 * Lets a reader and the store writer work on two cores: records are handed over in batches to a thread that writes them
 * into the target sink, in the order they were emitted. Ids are still allocated by the target on the reader's
 * thread (the writer thread never allocates any). {@link #finish()} waits until everything is written and
 * rethrows a failure of the writer thread.
 */
public final class PipelinedSink implements TraceSink {
    private static final int BATCH = 4096;
    private static final Object[] END = new Object[0];

    private final StoreWriter target;
    private final BlockingQueue<Object[]> queue = new ArrayBlockingQueue<>(8);
    private final Thread writer;
    private volatile Throwable failure;
    private Object[] batch = new Object[BATCH];
    private int size;
    private boolean finished;

    /** Calls that carry more than one value travel as these. */
    private record Info(String key, String value) {}

    private record Skip(SkipReason reason, String detail, String where, long count) {}

    private record Define(TableSpec table) {}

    private record Row(TableSpec table, Object[] values) {}

    private record Derive(String sql) {}

    private record DeriveSkipped(String query) {}

    public PipelinedSink(StoreWriter target) {
        this.target = target;
        this.writer = new Thread(this::drain, "hetscope-store-writer");
        writer.setDaemon(true);
        writer.start();
    }

    private void drain() {
        try {
            while (true) {
                Object[] b = queue.take();
                if (b == END) {
                    target.flushRows();
                    StoreWriter.debugThreadCpu("store writer");
                    return;
                }
                for (Object o : b) {
                    if (o == null) {
                        break;
                    }
                    write(o);
                }
            }
        } catch (Throwable t) {
            failure = t;
            // keep taking so the reader never blocks on a full queue
            while (true) {
                try {
                    if (queue.take() == END) {
                        return;
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void write(Object o) {
        switch (o) {
            case Slice s -> target.slice(s);
            case Instant i -> target.instant(i);
            case Flow f -> target.flow(f);
            case KernelLaunch k -> target.kernel(k);
            case Transfer t -> target.transfer(t);
            case CounterSample c -> target.counter(c);
            case KernelCounter c -> target.kernelCounter(c);
            case Track t -> target.track(t);
            case TraceProcess p -> target.process(p);
            case TraceThread t -> target.thread(t);
            case Device d -> target.device(d);
            case MemoryNode n -> target.memoryNode(n);
            case MemoryBlock b -> target.memoryBlock(b);
            case Residency r -> target.residency(r);
            case Task t -> target.task(t);
            case TaskAccess a -> target.taskAccess(a);
            case TaskDependency d -> target.taskDependency(d);
            case Info i -> target.info(i.key(), i.value());
            case Skip s -> target.skipped(s.reason(), s.detail(), s.where(), s.count());
            case Define d -> target.defineTable(d.table());
            case Row r -> target.row(r.table(), r.values());
            case Derive d -> target.derive(d.sql());
            case DeriveSkipped d -> target.deriveSkipped(d.query());
            default -> throw new IllegalStateException("unexpected record " + o.getClass());
        }
    }

    private void put(Object o) {
        if (finished) {
            throw new IllegalStateException("sink already finished");
        }
        batch[size++] = o;
        if (size == BATCH) {
            handOver();
        }
    }

    private void handOver() {
        rethrow();
        try {
            queue.put(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while handing records to the store writer");
        }
        batch = new Object[BATCH];
        size = 0;
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new StoreException("store writer failed", t);
        }
    }

    /** Writes everything still buffered and waits for the writer thread; rethrows its failure. */
    public void finish() {
        if (finished) {
            return;
        }
        if (size > 0) {
            handOver();
        }
        finished = true;
        StoreWriter.debugThreadCpu("reader");
        try {
            queue.put(END);
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for the store writer");
        }
        rethrow();
    }

    @Override
    public long newId(Entity entity) {
        return target.newId(entity);
    }

    @Override public void process(TraceProcess p) { put(p); }
    @Override public void thread(TraceThread t) { put(t); }
    @Override public void device(Device d) { put(d); }
    @Override public void track(Track t) { put(t); }
    @Override public void slice(Slice s) { put(s); }
    @Override public void instant(Instant i) { put(i); }
    @Override public void counter(CounterSample c) { put(c); }
    @Override public void flow(Flow f) { put(f); }
    @Override public void kernel(KernelLaunch k) { put(k); }
    @Override public void kernelCounter(KernelCounter c) { put(c); }
    @Override public void transfer(Transfer t) { put(t); }
    @Override public void memoryNode(MemoryNode n) { put(n); }
    @Override public void memoryBlock(MemoryBlock b) { put(b); }
    @Override public void residency(Residency r) { put(r); }
    @Override public void task(Task t) { put(t); }
    @Override public void taskAccess(TaskAccess a) { put(a); }
    @Override public void taskDependency(TaskDependency d) { put(d); }
    @Override public void defineTable(TableSpec table) { put(new Define(table)); }
    @Override public void row(TableSpec table, Object... values) { put(new Row(table, values.clone())); }
    @Override public void info(String key, String value) { put(new Info(key, value)); }
    @Override public void derive(String sql) { put(new Derive(sql)); }
    @Override public void deriveSkipped(String query) { put(new DeriveSkipped(query)); }
    @Override public void skipped(SkipReason reason, String detail, String where, long count) {
        put(new Skip(reason, detail, where, count));
    }
}
