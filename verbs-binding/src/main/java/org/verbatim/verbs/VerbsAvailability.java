package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.rdma_cma_h;
import org.verbatim.verbs.raw.verbs_h;

/**
 * Says whether RDMA verbs can be used here and, if not, why, in words. Never crashes the JVM:
 * a missing library, a kernel without ib_uverbs and an empty device list are all causes.
 *
 * <p>Run {@code java --enable-native-access=ALL-UNNAMED -cp ... org.verbatim.verbs.VerbsAvailability}:
 * it prints {@code devices: rxe0 siw0} and exits 0, or {@code unavailable: <cause>} and exits 1.
 */
public final class VerbsAvailability {

    /** Cause: the JVM was started without native access for this code. */
    public static final String NO_NATIVE_ACCESS = "native access is not enabled: run with --enable-native-access";
    /** Cause: the dynamic loader cannot find libibverbs.so.1. */
    public static final String NO_LIBIBVERBS = "libibverbs is not installed";
    /** Cause: ibv_get_device_list failed with ENOSYS. */
    public static final String NO_KERNEL_SUPPORT = "kernel RDMA support (ib_uverbs) is not present";
    /** Cause: the kernel supports RDMA but there is no device. */
    public static final String NO_DEVICES = "no RDMA devices";
    /** Cause: the dynamic loader cannot find librdmacm.so.1. */
    public static final String NO_LIBRDMACM = "librdmacm is not installed";
    /** Cause: rdma_create_event_channel failed with ENODEV. */
    public static final String NO_CM_DEVICES = "librdmacm: no RDMA CM devices";

    private static final int ENOSYS = 38;
    private static final int ENODEV = 19;

    /**
     * The outcome of a probe.
     *
     * @param cause why verbs cannot be used, empty if they can
     * @param devices the verbs device names found (empty when unavailable)
     */
    public record Report(Optional<String> cause, List<String> devices) { }

    private VerbsAvailability() { }

    /** Probes native access, libibverbs, the device list and librdmacm, in that order. */
    public static Report probe() {
        return probe(VerbsAvailability.class.getModule().isNativeAccessEnabled(), RuntimeHelper.IBVERBS, RuntimeHelper.RDMACM);
    }

    /** Why verbs cannot be used here, or empty if they can. */
    public static Optional<String> unavailabilityCause() {
        return probe().cause();
    }

    /** The names of the verbs devices present (empty if verbs are unavailable). */
    public static List<String> deviceNames() {
        return probe().devices();
    }

    static Report probe(boolean nativeAccess, String ibverbs, String rdmacm) {
        if (!nativeAccess) {
            return new Report(Optional.of(NO_NATIVE_ACCESS), List.of());
        }
        var devices = new ArrayList<String>();
        Optional<String> cause = verbsCause(ibverbs, devices);
        if (cause.isEmpty()) {
            cause = cmCause(rdmacm);
        }
        return cause.isPresent() ? new Report(cause, List.of()) : new Report(cause, List.copyOf(devices));
    }

    /** Lists the devices through {@code ibverbs} into {@code names}; returns the cause if that fails. */
    static Optional<String> verbsCause(String ibverbs, List<String> names) {
        if (RuntimeHelper.library(ibverbs).isEmpty()) {
            return Optional.of(NO_LIBIBVERBS);
        }
        if (!Files.isDirectory(sysfs().resolve("class/infiniband_verbs"))) {
            // What libibverbs itself checks first (its ENOSYS), without linking three downcalls:
            // every rank of a job on a machine without RDMA runs this probe in MPI_Init.
            return Optional.of(NO_KERNEL_SUPPORT);
        }
        MethodHandle list = RuntimeHelper.downcall(ibverbs, "ibv_get_device_list", verbs_h.ibv_get_device_list$descriptor());
        MethodHandle free = RuntimeHelper.downcall(ibverbs, "ibv_free_device_list", verbs_h.ibv_free_device_list$descriptor());
        MethodHandle name = RuntimeHelper.downcall(ibverbs, "ibv_get_device_name", verbs_h.ibv_get_device_name$descriptor());
        if (list == null || free == null || name == null) {
            return Optional.of(NO_LIBIBVERBS);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(arena);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment devices = (MemorySegment) list.invokeExact(state, count);
            if (devices.equals(MemorySegment.NULL)) {
                int errno = RuntimeHelper.errno(state);
                return Optional.of(errno == ENOSYS ? NO_KERNEL_SUPPORT : "libibverbs: ibv_get_device_list failed, errno " + errno);
            }
            int n = count.get(ValueLayout.JAVA_INT, 0);
            MemorySegment array = devices.reinterpret(ValueLayout.ADDRESS.byteSize() * n);
            for (int i = 0; i < n; i++) {
                MemorySegment s = (MemorySegment) name.invokeExact(state, array.getAtIndex(ValueLayout.ADDRESS, i));
                names.add(s.equals(MemorySegment.NULL) ? "?" : s.reinterpret(Long.MAX_VALUE).getString(0));
            }
            free.invokeExact(state, devices);
            return n == 0 ? Optional.of(NO_DEVICES) : Optional.empty();
        } catch (Throwable t) {
            return Optional.of("libibverbs: " + t);
        }
    }

    /** The sysfs root libibverbs reads: {@code SYSFS_PATH} if set, as libibverbs does, else /sys. */
    private static Path sysfs() {
        String path = System.getenv("SYSFS_PATH");
        return Path.of(path == null || path.isEmpty() ? "/sys" : path);
    }

    /** Opens and closes an RDMA CM event channel through {@code rdmacm}; returns the cause if that fails. */
    static Optional<String> cmCause(String rdmacm) {
        MethodHandle create = RuntimeHelper.downcall(rdmacm, "rdma_create_event_channel", rdma_cma_h.rdma_create_event_channel$descriptor());
        MethodHandle destroy = RuntimeHelper.downcall(rdmacm, "rdma_destroy_event_channel", rdma_cma_h.rdma_destroy_event_channel$descriptor());
        if (create == null || destroy == null) {
            return Optional.of(NO_LIBRDMACM);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(arena);
            MemorySegment channel = (MemorySegment) create.invokeExact(state);
            if (channel.equals(MemorySegment.NULL)) {
                int errno = RuntimeHelper.errno(state);
                return Optional.of(errno == ENODEV ? NO_CM_DEVICES : "librdmacm: rdma_create_event_channel failed, errno " + errno);
            }
            destroy.invokeExact(state, channel);
            return Optional.empty();
        } catch (Throwable t) {
            return Optional.of("librdmacm: " + t);
        }
    }

    /** Prints {@code devices: <names>} and exits 0, or {@code unavailable: <cause>} and exits 1. */
    public static void main(String[] args) {
        Report report = probe();
        if (report.cause().isPresent()) {
            System.out.println("unavailable: " + report.cause().get());
            System.exit(1);
        }
        System.out.println("devices: " + String.join(" ", report.devices()));
        System.exit(0);
    }
}
