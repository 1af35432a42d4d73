package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.verbatim.runtime.base.ErrorClass;

/**
 * Attribute caching, as Open MPI's Java bindings do it: a value is stored Java-serialized, so
 * {@code getAttr} returns a fresh copy, a dup copies the bytes, and free drops them. The Java API
 * has no user copy or delete callbacks.
 *
 * <p>Keyvals are process-wide and typed by the kind of object they were created for; using one
 * on another kind of object, or after freeKeyval, is ERR_KEYVAL. User keyvals are numbered from
 * {@link #FIRST_USER_KEYVAL}, clear of the predefined ones (MPI.TAG_UB .. MPI.WIN_DISP_UNIT).
 */
final class Attributes {
    /** The kinds of object that carry attributes. */
    enum Kind { COMM, DATATYPE, WIN }

    static final int FIRST_USER_KEYVAL = 64;

    private static final Map<Integer, Kind> KEYVALS = new HashMap<>();
    /** Freed keyvals that attributes still use: they keep working for those attributes. */
    private static final Map<Integer, Kind> FREED = new HashMap<>();
    /** Attributes (on any object) per keyval. */
    private static final Map<Integer, Integer> USES = new HashMap<>();
    private static int nextKeyval = FIRST_USER_KEYVAL;

    /** Serialized value per keyval, in keyval order. */
    private final Map<Integer, byte[]> values = new TreeMap<>();
    /** True on COMM_WORLD's dups: the predefined attributes are copied on dup, as in Open MPI. */
    private final boolean predefined;

    Attributes() {
        this(false);
    }

    private Attributes(boolean predefined) {
        this.predefined = predefined;
    }

    boolean predefined() {
        return predefined;
    }

    // ------------------------------------------------------------------ keyvals

    static synchronized int createKeyval(Kind kind) {
        int k = nextKeyval++;
        KEYVALS.put(k, kind);
        return k;
    }

    static synchronized void freeKeyval(Kind kind, int keyval) throws MPIException {
        checkKeyval(kind, keyval);
        KEYVALS.remove(keyval);
        if (USES.getOrDefault(keyval, 0) > 0) {
            FREED.put(keyval, kind);
        }
    }

    /**
     * Throws ERR_KEYVAL unless {@code keyval} is a live user keyval of {@code kind}, or a freed
     * one this object still has an attribute for (MPI: a freed keyval stays valid for the
     * attributes that use it until they are deleted).
     */
    void check(Kind kind, int keyval) throws MPIException {
        synchronized (Attributes.class) {
            if (FREED.get(keyval) == kind && values.containsKey(keyval)) {
                return;
            }
        }
        checkKeyval(kind, keyval);
    }

    private static synchronized void use(int keyval, int delta) {
        int n = USES.merge(keyval, delta, Integer::sum);
        if (n <= 0) {
            USES.remove(keyval);
            FREED.remove(keyval);
        }
    }

    /** Throws ERR_KEYVAL unless {@code keyval} is a live user keyval of {@code kind}. */
    static synchronized void checkKeyval(Kind kind, int keyval) throws MPIException {
        Kind k = KEYVALS.get(keyval);
        if (k == null) {
            throw MPIException.of(ErrorClass.ERR_KEYVAL, "invalid keyval " + keyval
                    + (keyval < FIRST_USER_KEYVAL && keyval >= 0
                    ? " (a predefined attribute cannot be set, deleted or freed)"
                    : " (never created, or freed)"));
        }
        if (k != kind) {
            throw MPIException.of(ErrorClass.ERR_KEYVAL, "keyval " + keyval + " was created for a "
                    + k.name().toLowerCase() + ", not a " + kind.name().toLowerCase());
        }
    }

    // ------------------------------------------------------------------ values

    void set(int keyval, Object value) throws MPIException {
        if (values.put(keyval, serialize(value)) == null) {
            use(keyval, 1);
        }
    }

    /** A deserialized copy of the value, or null if none is set. */
    Object get(int keyval) throws MPIException {
        byte[] b = values.get(keyval);
        return b == null ? null : deserialize(b);
    }

    /** Deletes the value; false if there was none. */
    boolean delete(int keyval) {
        boolean had = values.remove(keyval) != null;
        if (had) {
            use(keyval, -1);
        }
        return had;
    }

    /** The attributes a dup gets: every value (bytes are never modified, so they are shared). */
    Attributes copyForDup(boolean fromWorld) {
        Attributes c = new Attributes(predefined || fromWorld);
        c.values.putAll(values);
        for (int keyval : values.keySet()) {
            use(keyval, 1);
        }
        return c;
    }

    /** On free: the values are deleted. */
    void clear() {
        for (int keyval : values.keySet()) {
            use(keyval, -1);
        }
        values.clear();
    }

    int count() {
        return values.size();
    }

    static byte[] serialize(Object value) throws MPIException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw MPIException.of(ErrorClass.ERR_ARG, "attribute value cannot be serialized: "
                    + e);
        }
        return bytes.toByteArray();
    }

    static Object deserialize(byte[] b) throws MPIException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw MPIException.of(ErrorClass.ERR_OTHER, "attribute value cannot be deserialized: "
                    + e);
        }
    }
}
