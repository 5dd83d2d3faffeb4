package org.hetscope.store;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import org.duckdb.DuckDBConnection;

/**
 * Hands a {@link ColumnBatch} to DuckDB through the Arrow C stream interface, the bulk path DuckDB scans without a
 * call per value. The structs of the C data interface are laid out by hand in native memory of an arena (no
 * Arrow Java library, no {@code --add-opens}); the stream yields the batch once. Everything lives until the
 * caller closes the arena, after DuckDB has finished reading: the release callbacks only mark structs released.
 *
 * <p>DuckDB's public {@code registerArrowStream} insists on an object of the Arrow Java library; the native call
 * behind it only needs the struct's address, so it is found by reflection and called directly. That ties this
 * path to the driver's internals: {@link #loader} checks them (and a one-batch round trip) when a store is
 * started, and {@link BatchLoader#choose} falls back to the public appender when they are not there.
 */
final class ArrowStream implements BatchLoader {
    static final String NAME = "arrow-stream";

    // Offsets of the C data interface structs on 64-bit platforms (arrow/c/abi.h).
    private static final long SCHEMA_SIZE = 72;
    private static final long SCHEMA_FORMAT = 0;
    private static final long SCHEMA_NAME = 8;
    private static final long SCHEMA_FLAGS = 24;
    private static final long SCHEMA_N_CHILDREN = 32;
    private static final long SCHEMA_CHILDREN = 40;
    private static final long SCHEMA_RELEASE = 56;
    private static final long ARRAY_SIZE = 80;
    private static final long ARRAY_LENGTH = 0;
    private static final long ARRAY_NULL_COUNT = 8;
    private static final long ARRAY_N_BUFFERS = 24;
    private static final long ARRAY_N_CHILDREN = 32;
    private static final long ARRAY_BUFFERS = 40;
    private static final long ARRAY_CHILDREN = 48;
    private static final long ARRAY_RELEASE = 64;
    private static final long STREAM_SIZE = 40;
    private static final long STREAM_RELEASE = 24;
    private static final long STREAM_PRIVATE = 32;
    private static final long FLAG_NULLABLE = 2;
    /** The stream's private block: schema pointer, array pointer, and whether the batch was handed out. */
    private static final long PRIVATE_SIZE = 24;

    /** The callbacks of the stream, made once; a platform without them fails here, when first used. */
    private static final class Stubs {
        static final MemorySegment GET_SCHEMA;
        static final MemorySegment GET_NEXT;
        static final MemorySegment GET_LAST_ERROR;
        static final MemorySegment RELEASE_STREAM;
        static final MemorySegment RELEASE_SCHEMA;
        static final MemorySegment RELEASE_ARRAY;

        static {
            if (ADDRESS.byteSize() != 8) {
                throw new UnsupportedOperationException("the Arrow structs are laid out for 64-bit platforms");
            }
            Linker linker = Linker.nativeLinker();
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            try {
                GET_SCHEMA = linker.upcallStub(
                        lookup.findStatic(ArrowStream.class, "getSchema",
                                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class)),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Arena.global());
                GET_NEXT = linker.upcallStub(
                        lookup.findStatic(ArrowStream.class, "getNext",
                                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class)),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Arena.global());
                GET_LAST_ERROR = linker.upcallStub(
                        lookup.findStatic(ArrowStream.class, "getLastError",
                                MethodType.methodType(MemorySegment.class, MemorySegment.class)),
                        FunctionDescriptor.of(ADDRESS, ADDRESS), Arena.global());
                RELEASE_STREAM = releaseStub(linker, lookup, "releaseStream");
                RELEASE_SCHEMA = releaseStub(linker, lookup, "releaseSchema");
                RELEASE_ARRAY = releaseStub(linker, lookup, "releaseArray");
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * The driver's native registration method, looked up by this name in {@code org.duckdb.DuckDBNative}. Tests
     * name a missing one to see a driver without it.
     */
    static volatile String registerMethod = "duckdb_jdbc_arrow_register";
    private static final java.util.concurrent.atomic.AtomicBoolean WARNED =
            new java.util.concurrent.atomic.AtomicBoolean();
    private static final String PROBE_TABLE = "hetscope_loader_probe";

    private final DuckDBConnection connection;
    private final MethodHandle register;
    private final Field connectionRef;

    private ArrowStream(DuckDBConnection connection, MethodHandle register, Field connectionRef) {
        this.connection = connection;
        this.register = register;
        this.connectionRef = connectionRef;
    }

    /**
     * The Arrow stream loader for {@code connection}, after finding the driver's internals it needs and writing
     * and reading back one small batch through them.
     *
     * @throws StoreException if this driver lacks them or the round trip does not give the rows back
     */
    static ArrowStream loader(DuckDBConnection connection) {
        MethodHandle register;
        Field connectionRef;
        try {
            Class<?> nativeClass = Class.forName("org.duckdb.DuckDBNative");
            Method m = nativeClass.getDeclaredMethod(registerMethod, ByteBuffer.class, long.class, byte[].class);
            m.setAccessible(true);
            register = MethodHandles.lookup().unreflect(m)
                    .asType(MethodType.methodType(void.class, ByteBuffer.class, long.class, byte[].class));
            connectionRef = DuckDBConnection.class.getDeclaredField("connRef");
            connectionRef.setAccessible(true);
            if (connectionRef.getType() != ByteBuffer.class) {
                throw new NoSuchFieldException("DuckDBConnection.connRef is a " + connectionRef.getType());
            }
            Objects.requireNonNull(Stubs.GET_NEXT);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new StoreException("this DuckDB JDBC driver lacks the Arrow stream registration hetscope was"
                    + " built against (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
        ArrowStream loader = new ArrowStream(connection, register, connectionRef);
        loader.probe();
        return loader;
    }

    /** Writes two rows (a null, multi-byte text) to a temporary table and checks they come back as written. */
    private void probe() {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TEMP TABLE " + PROBE_TABLE + "(n BIGINT, t VARCHAR)");
            try {
                ColumnBatch b = new ColumnBatch(PROBE_TABLE, java.util.List.of(
                        new ColumnBatch.Column("n", ColumnBatch.Type.BIGINT),
                        new ColumnBatch.Column("t", ColumnBatch.Type.VARCHAR)));
                b.beginRow().append(-42L).append("é漢").endRow();
                b.beginRow().appendNull().append("x").endRow();
                insert(b);
                try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*), count(n), sum(n),"
                        + " string_agg(t, '|' ORDER BY t) FROM " + PROBE_TABLE)) {
                    rs.next();
                    String got = rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getLong(3) + " " + rs.getString(4);
                    if (!got.equals("2 1 -42 x|é漢")) {
                        throw new StoreException("an Arrow batch of 2 rows came back as " + got);
                    }
                }
            } finally {
                st.execute("DROP TABLE " + PROBE_TABLE);
            }
        } catch (SQLException e) {
            throw new StoreException("the Arrow stream round trip failed: " + e.getMessage(), e);
        }
    }

    /** Prints {@code message} on standard error the first time only. */
    static void warnOnce(String message) {
        if (WARNED.compareAndSet(false, true)) {
            System.err.println(message);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void insert(ColumnBatch batch) {
        if (batch.rows() == 0) {
            return;
        }
        String view = "hetscope_batch_" + batch.table;
        try (Arena arena = Arena.ofConfined(); Statement st = connection.createStatement()) {
            register(view, export(batch, arena));
            int inserted = st.executeUpdate("INSERT INTO " + batch.table + " (" + batch.columnList() + ") SELECT "
                    + batch.columnList() + " FROM " + view);
            st.execute("DROP VIEW " + view);
            if (inserted != batch.rows()) {
                throw new StoreException("DuckDB took " + inserted + " of " + batch.rows() + " rows of " + batch.table);
            }
        } catch (SQLException e) {
            throw new StoreException("writing " + batch.rows() + " rows of " + batch.table, e);
        }
    }

    /** Makes {@code stream} readable as the view {@code name} on the connection (one scan only). */
    private void register(String name, MemorySegment stream) {
        try {
            register.invokeExact((ByteBuffer) connectionRef.get(connection), stream.address(),
                    name.getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new StoreException("cannot hand a batch to DuckDB", e);
        }
    }

    private static MemorySegment releaseStub(Linker linker, MethodHandles.Lookup lookup, String name)
            throws ReflectiveOperationException {
        return linker.upcallStub(
                lookup.findStatic(ArrowStream.class, name, MethodType.methodType(void.class, MemorySegment.class)),
                FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
    }

    /** Lays out the batch as a one-batch Arrow stream in {@code arena} and returns the stream struct. */
    static MemorySegment export(ColumnBatch batch, Arena arena) {
        int width = batch.width();
        int rows = batch.rows();

        MemorySegment schemaChildren = arena.allocate(ADDRESS.byteSize() * width, 8);
        MemorySegment arrayChildren = arena.allocate(ADDRESS.byteSize() * width, 8);
        for (int c = 0; c < width; c++) {
            ColumnBatch.Column column = batch.columns.get(c);
            MemorySegment schema = arena.allocate(SCHEMA_SIZE, 8);
            schema.set(ADDRESS, SCHEMA_FORMAT, arena.allocateFrom(column.type().arrowFormat));
            schema.set(ADDRESS, SCHEMA_NAME, arena.allocateFrom(column.name()));
            schema.set(JAVA_LONG, SCHEMA_FLAGS, FLAG_NULLABLE);
            schema.set(ADDRESS, SCHEMA_RELEASE, Stubs.RELEASE_SCHEMA);
            schemaChildren.setAtIndex(ADDRESS, c, schema);
            arrayChildren.setAtIndex(ADDRESS, c, columnArray(batch, c, arena));
        }

        MemorySegment schema = arena.allocate(SCHEMA_SIZE, 8);
        schema.set(ADDRESS, SCHEMA_FORMAT, arena.allocateFrom("+s"));
        schema.set(ADDRESS, SCHEMA_NAME, arena.allocateFrom(""));
        schema.set(JAVA_LONG, SCHEMA_N_CHILDREN, width);
        schema.set(ADDRESS, SCHEMA_CHILDREN, schemaChildren);
        schema.set(ADDRESS, SCHEMA_RELEASE, Stubs.RELEASE_SCHEMA);

        MemorySegment array = arena.allocate(ARRAY_SIZE, 8);
        MemorySegment structBuffers = arena.allocate(ADDRESS.byteSize(), 8); // one null validity buffer
        array.set(JAVA_LONG, ARRAY_LENGTH, rows);
        array.set(JAVA_LONG, ARRAY_N_BUFFERS, 1);
        array.set(JAVA_LONG, ARRAY_N_CHILDREN, width);
        array.set(ADDRESS, ARRAY_BUFFERS, structBuffers);
        array.set(ADDRESS, ARRAY_CHILDREN, arrayChildren);
        array.set(ADDRESS, ARRAY_RELEASE, Stubs.RELEASE_ARRAY);

        MemorySegment state = arena.allocate(PRIVATE_SIZE, 8);
        state.set(ADDRESS, 0, schema);
        state.set(ADDRESS, 8, array);
        MemorySegment stream = arena.allocate(STREAM_SIZE, 8);
        stream.set(ADDRESS, 0, Stubs.GET_SCHEMA);
        stream.set(ADDRESS, 8, Stubs.GET_NEXT);
        stream.set(ADDRESS, 16, Stubs.GET_LAST_ERROR);
        stream.set(ADDRESS, STREAM_RELEASE, Stubs.RELEASE_STREAM);
        stream.set(ADDRESS, STREAM_PRIVATE, state);
        return stream;
    }

    private static MemorySegment columnArray(ColumnBatch batch, int c, Arena arena) {
        int rows = batch.rows();
        ColumnBatch.Type type = batch.columns.get(c).type();
        int nulls = batch.nullCount(c);
        MemorySegment validity = MemorySegment.NULL;
        if (nulls > 0) {
            int words = (rows + 63) >>> 6;
            validity = arena.allocate(words * 8L, 64);
            MemorySegment.copy(batch.validity(c), 0, validity, JAVA_LONG, 0, words);
        }
        MemorySegment buffers = arena.allocate(ADDRESS.byteSize() * 3, 8);
        buffers.setAtIndex(ADDRESS, 0, validity);
        int nBuffers = 2;
        switch (type) {
            case BIGINT -> buffers.setAtIndex(ADDRESS, 1, copy(arena, batch.longs(c), rows));
            case INTEGER -> buffers.setAtIndex(ADDRESS, 1, copy(arena, batch.ints(c), rows));
            case DOUBLE -> {
                MemorySegment values = arena.allocate(Math.max(8, rows * 8L), 64);
                MemorySegment.copy(batch.doubles(c), 0, values, JAVA_DOUBLE, 0, rows);
                buffers.setAtIndex(ADDRESS, 1, values);
            }
            case BOOLEAN -> {
                int[] flags = batch.ints(c);
                MemorySegment bits = arena.allocate(Math.max(8, (rows + 7) / 8), 64);
                for (int r = 0; r < rows; r++) {
                    if (flags[r] != 0) {
                        bits.set(JAVA_BYTE, r >>> 3, (byte) (bits.get(JAVA_BYTE, r >>> 3) | (1 << (r & 7))));
                    }
                }
                buffers.setAtIndex(ADDRESS, 1, bits);
            }
            case VARCHAR -> {
                MemorySegment offsets = arena.allocate((rows + 1) * 4L, 64);
                MemorySegment.copy(batch.textEnds(c), 0, offsets, JAVA_INT, 4, rows);
                int used = batch.textUsed(c);
                MemorySegment data = arena.allocate(Math.max(8, used), 64);
                MemorySegment.copy(batch.text(c), 0, data, JAVA_BYTE, 0, used);
                buffers.setAtIndex(ADDRESS, 1, offsets);
                buffers.setAtIndex(ADDRESS, 2, data);
                nBuffers = 3;
            }
        }
        MemorySegment array = arena.allocate(ARRAY_SIZE, 8);
        array.set(JAVA_LONG, ARRAY_LENGTH, rows);
        array.set(JAVA_LONG, ARRAY_NULL_COUNT, nulls);
        array.set(JAVA_LONG, ARRAY_N_BUFFERS, nBuffers);
        array.set(ADDRESS, ARRAY_BUFFERS, buffers);
        array.set(ADDRESS, ARRAY_RELEASE, Stubs.RELEASE_ARRAY);
        return array;
    }

    private static MemorySegment copy(Arena arena, long[] values, int rows) {
        MemorySegment s = arena.allocate(Math.max(8, rows * 8L), 64);
        MemorySegment.copy(values, 0, s, JAVA_LONG, 0, rows);
        return s;
    }

    private static MemorySegment copy(Arena arena, int[] values, int rows) {
        MemorySegment s = arena.allocate(Math.max(8, rows * 4L), 64);
        MemorySegment.copy(values, 0, s, JAVA_INT, 0, rows);
        return s;
    }

    // The callbacks below run on DuckDB's threads. They must never throw (an exception escaping an upcall ends
    // the JVM), so each is a few loads and stores on memory that stays valid until the arena is closed.

    private static MemorySegment state(MemorySegment stream) {
        return stream.reinterpret(STREAM_SIZE).get(ADDRESS, STREAM_PRIVATE).reinterpret(PRIVATE_SIZE);
    }

    private static int getSchema(MemorySegment stream, MemorySegment out) {
        MemorySegment schema = state(stream).get(ADDRESS, 0).reinterpret(SCHEMA_SIZE);
        MemorySegment.copy(schema, 0, out.reinterpret(SCHEMA_SIZE), 0, SCHEMA_SIZE);
        return 0;
    }

    private static int getNext(MemorySegment stream, MemorySegment out) {
        MemorySegment state = state(stream);
        MemorySegment target = out.reinterpret(ARRAY_SIZE);
        if (state.get(JAVA_LONG, 16) == 0) {
            state.set(JAVA_LONG, 16, 1);
            MemorySegment.copy(state.get(ADDRESS, 8).reinterpret(ARRAY_SIZE), 0, target, 0, ARRAY_SIZE);
        } else {
            target.fill((byte) 0); // a released array marks the end of the stream
        }
        return 0;
    }

    private static MemorySegment getLastError(MemorySegment stream) {
        return MemorySegment.NULL;
    }

    private static void releaseStream(MemorySegment stream) {
        stream.reinterpret(STREAM_SIZE).set(ADDRESS, STREAM_RELEASE, MemorySegment.NULL);
    }

    private static void releaseSchema(MemorySegment schema) {
        schema.reinterpret(SCHEMA_SIZE).set(ADDRESS, SCHEMA_RELEASE, MemorySegment.NULL);
    }

    private static void releaseArray(MemorySegment array) {
        array.reinterpret(ARRAY_SIZE).set(ADDRESS, ARRAY_RELEASE, MemorySegment.NULL);
    }
}
