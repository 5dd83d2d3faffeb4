package org.hetscope.capture.kernels.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.CType;
import org.hetscope.capture.kernels.lang.Space;

/**
 * Kernel arguments from command-line text, typed by the kernel's parameters. Buffers ({@code __global} or
 * {@code __constant} pointers): {@code file:PATH} (raw little-endian bytes), {@code zeros:N}, {@code iota:N},
 * {@code fill:N:V}, {@code random:N[:SEED]} (ints in [0, 256) or floats in [0, 1)); N counts elements of the
 * pointee type. {@code __local} pointers: {@code local:N} or {@code N} elements. Scalars: a number.
 */
public final class ArgumentSpecs {
    private ArgumentSpecs() {}

    public static List<KernelArgument> parse(Ast.FunctionDef kernel, List<String> specs) {
        if (specs.size() != kernel.params().size()) {
            throw new IllegalArgumentException("kernel " + kernel.name() + " takes " + kernel.params().size()
                    + " arguments (" + String.join(", ", kernel.params().stream().map(p -> p.type().display() + " "
                    + p.name()).toList()) + "), " + specs.size() + " --arg given");
        }
        List<KernelArgument> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Ast.VarDecl p = kernel.params().get(i);
            try {
                out.add(one(p.type(), specs.get(i).trim()));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("--arg " + i + " (" + p.type().display() + " " + p.name() + ") '"
                        + specs.get(i) + "': " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static KernelArgument one(CType type, String spec) {
        if (type instanceof CType.Pointer ptr) {
            CType elem = ptr.target();
            int size = bytes(elem);
            boolean floating = elem.floating();
            String[] parts = spec.split(":");
            if (ptr.space() == Space.LOCAL) {
                long n = Long.parseLong(parts[parts.length - 1]);
                return new KernelArgument.Local(n * size);
            }
            switch (parts[0]) {
                case "file" -> {
                    try {
                        return new KernelArgument.Host(Files.readAllBytes(Path.of(spec.substring(5))));
                    } catch (IOException e) {
                        throw new IllegalArgumentException("cannot read " + spec.substring(5) + ": " + e.getMessage());
                    }
                }
                case "zeros", "iota", "fill", "random" -> {
                    int n = Integer.parseInt(parts[1]);
                    ByteBuffer b = ByteBuffer.allocate(Math.multiplyExact(n, size)).order(ByteOrder.LITTLE_ENDIAN);
                    Random rnd = new Random(parts[0].equals("random") && parts.length > 2 ? Long.parseLong(parts[2]) : 1);
                    int comps = elem.components();
                    int scalarSize = size / comps;
                    for (int k = 0; k < n * comps; k++) {
                        double v = switch (parts[0]) {
                            case "zeros" -> 0;
                            case "iota" -> k / comps;
                            case "fill" -> Double.parseDouble(parts[2]);
                            default -> floating ? rnd.nextFloat() : rnd.nextInt(256);
                        };
                        put(b, scalarSize, floating, v);
                    }
                    return new KernelArgument.Host(b.array());
                }
                default -> throw new IllegalArgumentException("a buffer needs file:PATH, zeros:N, iota:N, fill:N:V or"
                        + " random:N[:SEED]");
            }
        }
        if (type instanceof CType.Scalar s) {
            ByteBuffer b = ByteBuffer.allocate(s.bytes()).order(ByteOrder.LITTLE_ENDIAN);
            put(b, s.bytes(), s.floating(), s.floating() ? Double.parseDouble(spec) : Long.decode(spec));
            return new KernelArgument.Scalar(b.array(), s.name());
        }
        throw new IllegalArgumentException("arguments of type " + type.display() + " are not supported");
    }

    private static void put(ByteBuffer b, int size, boolean floating, double v) {
        if (floating) {
            if (size == 8) {
                b.putDouble(v);
            } else {
                b.putFloat((float) v);
            }
            return;
        }
        long l = (long) v;
        switch (size) {
            case 1 -> b.put((byte) l);
            case 2 -> b.putShort((short) l);
            case 4 -> b.putInt((int) l);
            default -> b.putLong(l);
        }
    }

    private static int bytes(CType t) {
        return switch (t) {
            case CType.Scalar s -> Math.max(1, s.bytes());
            case CType.Vector v -> v.element().bytes() * (v.width() == 3 ? 4 : v.width());
            case CType.Struct s -> 1;
            default -> 4;
        };
    }

    /** Parses {@code N[,N[,N]]}. */
    public static long[] sizes(String text) {
        String[] parts = text.split(",");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Long.parseLong(parts[i].trim());
        }
        return out;
    }
}
