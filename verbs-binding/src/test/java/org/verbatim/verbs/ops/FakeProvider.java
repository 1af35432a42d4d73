package org.verbatim.verbs.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import org.verbatim.verbs.Gcc;

/** The test-only fake provider (src/test/c/fake_provider.c), built by gcc and loaded through FFM. */
final class FakeProvider {

    /** What the last op call saw, as the C side recorded it. */
    record Call(int op, int intArg, long obj, long arg, long bad) { }

    private static final Linker LINKER = Linker.nativeLinker();
    private static SymbolLookup library;

    private FakeProvider() { }

    static synchronized SymbolLookup library() throws Exception {
        if (library == null) {
            Path so = Gcc.compile(Gcc.moduleDir().resolve("src/test/c/fake_provider.c"), "libfakeverbs.so",
                    "-shared", "-fPIC", "-libverbs");
            library = SymbolLookup.libraryLookup(so, Arena.global());
        }
        return library;
    }

    static MethodHandle function(String name, FunctionDescriptor descriptor) throws Exception {
        return LINKER.downcallHandle(library().findOrThrow(name), descriptor);
    }

    static Object call(String name, FunctionDescriptor descriptor, Object... args) throws Throwable {
        return function(name, descriptor).invokeWithArguments(List.of(args));
    }

    static MemorySegment open(boolean extended, long size) throws Throwable {
        return (MemorySegment) call("fake_open", FunctionDescriptor.of(ADDRESS, JAVA_INT, JAVA_LONG), extended ? 1 : 0, size);
    }

    static MemorySegment object(String kind, MemorySegment context) throws Throwable {
        return (MemorySegment) call("fake_" + kind, FunctionDescriptor.of(ADDRESS, ADDRESS), context);
    }

    static void reset() throws Throwable {
        call("fake_reset", FunctionDescriptor.ofVoid());
    }

    static Call lastCall() throws Throwable {
        MemorySegment s = ((MemorySegment) call("fake_last_call", FunctionDescriptor.of(ADDRESS))).reinterpret(40);
        return new Call(s.get(JAVA_INT, 0), s.get(JAVA_INT, 4), s.get(ADDRESS, 8).address(),
                s.get(ADDRESS, 16).address(), s.get(ADDRESS, 24).address());
    }

    /** Calls one of the exported C inlines: int c_<name>(...). */
    static int c(String name, FunctionDescriptor descriptor, Object... args) throws Throwable {
        return (int) call("c_" + name, descriptor, args);
    }

    static final FunctionDescriptor POST = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    static final FunctionDescriptor POLL = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
    static final FunctionDescriptor NOTIFY = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);
    static final FunctionDescriptor QUERY_PORT = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS);
    static final FunctionDescriptor TWO_POINTERS = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    static final FunctionDescriptor ONE_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS);
}
