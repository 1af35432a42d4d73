package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.verbs_h;

/** The verbs devices ({@code ibv_get_device_list}); open one as a {@link Context}. Close after opening. */
public final class DeviceList extends NativeResource {

    private final List<String> names = new ArrayList<>();
    private final List<MemorySegment> devices = new ArrayList<>();

    /** Lists the devices; throws {@link VerbsException} (ENOSYS without kernel support). */
    public DeviceList() {
        super(null);
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment count = arena().allocate(ValueLayout.JAVA_INT);
        MemorySegment list = Calls.nonNull(verbs_h.ibv_get_device_list(state, count), state, "ibv_get_device_list");
        handle(list);
        int n = count.get(ValueLayout.JAVA_INT, 0);
        MemorySegment array = list.reinterpret(ValueLayout.ADDRESS.byteSize() * n);
        for (int i = 0; i < n; i++) {
            MemorySegment device = array.getAtIndex(ValueLayout.ADDRESS, i);
            devices.add(device);
            names.add(verbs_h.ibv_get_device_name(state, device).reinterpret(Long.MAX_VALUE).getString(0));
        }
    }

    /** The device names, in list order. */
    public List<String> names() {
        checkOpen();
        return List.copyOf(names);
    }

    /** Opens the named device ({@code ibv_open_device}); the Context outlives this list. */
    public Context open(String name) {
        checkOpen();
        int i = names.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no RDMA device " + name + " (have " + names + ")");
        }
        return new Context(devices.get(i), name);
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_free_device_list(releaseState(), handle);
    }
}
