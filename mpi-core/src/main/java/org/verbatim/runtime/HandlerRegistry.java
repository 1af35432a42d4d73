package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.runtime.ext.ImmediateHandler;
import org.verbatim.runtime.ext.MessageHandler;

/**
 * The handler half of the runtime's {@link Dispatch}: message kinds (the first byte of an eager
 * message) and ranges of write-with-immediate values, each with its handler and owner. Finding
 * the handler is an array index for a kind and a short scan for an immediate (few ranges).
 */
final class HandlerRegistry {
    /** The kind byte (a static VarHandle: cheaper than a layout argument below C2). */
    private static final java.lang.invoke.VarHandle KIND_BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final MessageHandler[] kinds = new MessageHandler[256];
    private final String[] kindOwners = new String[256];
    private int[] immediateValues = new int[0];
    private int[] immediateMasks = new int[0];
    private ImmediateHandler[] immediateHandlers = new ImmediateHandler[0];
    private String[] immediateOwners = new String[0];

    void registerKind(int kind, String owner, MessageHandler handler) {
        if (kind <= 0 || kind > Dispatch.LAST_EXTENSION_KIND) {
            throw new IllegalArgumentException("message kind " + kind + " outside 1.."
                    + Dispatch.LAST_EXTENSION_KIND + " (0xF0..0xFF belong to transports)");
        }
        if (kinds[kind] != null) {
            throw new IllegalStateException("message kind " + kind + " of " + owner
                    + " is taken by " + kindOwners[kind]);
        }
        kinds[kind] = handler;
        kindOwners[kind] = owner;
    }

    int allocateKind(String owner, MessageHandler handler) {
        for (int k = Dispatch.FIRST_EXTENSION_KIND; k <= Dispatch.LAST_EXTENSION_KIND; k++) {
            if (kinds[k] == null) {
                registerKind(k, owner, handler);
                return k;
            }
        }
        throw new IllegalStateException("no free message kind left for " + owner);
    }

    void registerImmediates(int value, int mask, String owner, ImmediateHandler handler) {
        if ((value & ~mask) != 0) {
            throw new IllegalArgumentException("immediate value 0x" + Integer.toHexString(value)
                    + " has bits outside its mask 0x" + Integer.toHexString(mask));
        }
        for (int i = 0; i < immediateValues.length; i++) {
            if (((immediateValues[i] ^ value) & immediateMasks[i] & mask) == 0) {
                throw new IllegalStateException("immediates 0x" + Integer.toHexString(value)
                        + "/0x" + Integer.toHexString(mask) + " of " + owner
                        + " overlap those of " + immediateOwners[i]);
            }
        }
        int n = immediateValues.length;
        immediateValues = Arrays.copyOf(immediateValues, n + 1);
        immediateMasks = Arrays.copyOf(immediateMasks, n + 1);
        immediateHandlers = Arrays.copyOf(immediateHandlers, n + 1);
        immediateOwners = Arrays.copyOf(immediateOwners, n + 1);
        immediateValues[n] = value;
        immediateMasks[n] = mask;
        immediateHandlers[n] = handler;
        immediateOwners[n] = owner;
    }

    /** The kind byte of the message at {@code at} (0..255). */
    int kindOf(MemorySegment m, long at) {
        return (byte) KIND_BYTE.get(m, at) & 0xFF;
    }

    /** The handler of {@code kind} (0..255), or null when it is not registered. */
    MessageHandler handler(int kind) {
        return kinds[kind];
    }

    /** The handler whose range holds {@code immediate}, or null. */
    ImmediateHandler handlerOf(int immediate) {
        for (int i = 0; i < immediateValues.length; i++) {
            if ((immediate & immediateMasks[i]) == immediateValues[i]) {
                return immediateHandlers[i];
            }
        }
        return null;
    }
}
