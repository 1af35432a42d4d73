package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.MpiProcess;

/**
 * MPI_Info: an ordered set of (key, value) string pairs. Keys keep their insertion order, so
 * {@link #getKey(int)} is stable while the set is unchanged. Keys are at most
 * {@link MPI#MAX_INFO_KEY} characters and values at most {@link MPI#MAX_INFO_VAL}, as in Open MPI.
 *
 * <p>{@link MPI#INFO_ENV} is filled on first use after Init with the keys MPI 3.1 defines for it
 * that Verbatim knows, as Open MPI fills them (command: the main class or jar; argv: the
 * program's arguments; maxprocs, host, arch, wdir, thread_level) and Open MPI's own
 * ompi_num_apps, ompi_first_rank and ompi_np.
 * {@link MPI#INFO_NULL} is a null handle: every call on it fails with ERR_INFO.
 */
public final class Info implements Freeable, Cloneable {
    private enum Kind { USER, ENV, NULL }

    private final Kind kind;
    private final Map<String, String> entries = new LinkedHashMap<>();
    private boolean freed;
    private boolean envFilled;

    /** MPI_Info_create: an empty info object (MPI must be initialised). */
    public Info() throws MPIException {
        MPI.check();
        this.kind = Kind.USER;
    }

    private Info(Kind kind) {
        this.kind = kind;
    }

    static Info environment() {
        return new Info(Kind.ENV);
    }

    static Info nullInfo() {
        return new Info(Kind.NULL);
    }

    /** Stores {@code value} under {@code key} (MPI_Info_set). */
    public void set(String key, String value) throws MPIException {
        Map<String, String> m = entries("MPI_Info_set");
        checkKey("MPI_Info_set", key);
        if (value == null || value.isEmpty() || value.length() > MPI.MAX_INFO_VAL) {
            throw error("MPI_Info_set", ErrorClass.ERR_INFO_VALUE, value == null ? "value is null"
                    : "value of " + value.length() + " characters (valid: 1.."
                    + MPI.MAX_INFO_VAL + ")");
        }
        m.put(key, value);
    }

    /** The value of {@code key}, or null if it is not set. */
    public String get(String key) throws MPIException {
        Map<String, String> m = entries("MPI_Info_get");
        checkKey("MPI_Info_get", key);
        return m.get(key);
    }

    /** Removes {@code key} (MPI_Info_delete). */
    public void delete(String key) throws MPIException {
        Map<String, String> m = entries("MPI_Info_delete");
        checkKey("MPI_Info_delete", key);
        if (m.remove(key) == null) {
            throw error("MPI_Info_delete", ErrorClass.ERR_INFO_NOKEY, "key '" + key
                    + "' is not set");
        }
    }

    /** MPI_Info_get_nkeys. */
    public int size() throws MPIException {
        return entries("MPI_Info_get_nkeys").size();
    }

    /** MPI_Info_get_nthkey: the key at {@code i}, in insertion order. */
    public String getKey(int i) throws MPIException {
        Map<String, String> m = entries("MPI_Info_get_nthkey");
        if (i < 0 || i >= m.size()) {
            throw error("MPI_Info_get_nthkey", ErrorClass.ERR_ARG, "key index " + i
                    + " out of range (" + m.size() + " keys)");
        }
        return new ArrayList<>(m.keySet()).get(i);
    }

    /** A copy of this info object ({@link #dup}). */
    @Override
    public Info clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** A copy with the same keys and values (MPI_Info_dup). */
    public Info dup() throws MPIException {
        Map<String, String> m = entries("MPI_Info_dup");
        Info copy = new Info(Kind.USER);
        copy.entries.putAll(m);
        return copy;
    }

    /** Frees this info object (MPI_Info_free). */
    public void free() throws MPIException {
        entries("MPI_Info_free");
        if (kind == Kind.ENV) {
            throw error("MPI_Info_free", ErrorClass.ERR_INFO, "cannot free MPI.INFO_ENV");
        }
        entries.clear();
        freed = true;
    }

    /** True if this is {@link MPI#INFO_NULL} or freed. */
    public boolean isNull() {
        return freed || kind == Kind.NULL;
    }

    /** The keys and values, for debugging. */
    @Override
    public String toString() {
        return isNull() ? "Info[null]" : "Info" + entries;
    }

    // ------------------------------------------------------------------ internals

    /** The entries of a usable info object (filling INFO_ENV on first use). */
    private Map<String, String> entries(String call) throws MPIException {
        MPI.check();
        if (isNull()) {
            throw error(call, ErrorClass.ERR_INFO, kind == Kind.NULL ? "MPI.INFO_NULL"
                    : "invalid info object (it has been freed)");
        }
        if (kind == Kind.ENV && !envFilled) {
            fillEnvironment(MPI.process());
            envFilled = true;
        }
        return entries;
    }

    private void fillEnvironment(MpiProcess p) {
        // As Open MPI: command is the program (here its main class, or its jar), argv its
        // arguments (those given to Init, else those on the java command line)
        String[] java = System.getProperty("sun.java.command", "").strip().split("\\s+", 2);
        if (!java[0].isEmpty()) {
            entries.put("command", clip(java[0]));
        } else {
            ProcessHandle.current().info().command().ifPresent(c -> entries.put("command",
                    clip(c)));
        }
        String[] args = MPI.initArgs();
        entries.put("argv", clip(args != null ? String.join(" ", args)
                : java.length > 1 ? java[1] : ""));
        entries.put("maxprocs", Integer.toString(p.size()));
        entries.put("host", clip(p.host(p.rank())));
        entries.put("arch", clip(System.getProperty("os.arch")));
        entries.put("wdir", clip(System.getProperty("user.dir")));
        String[] levels = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
            "MPI_THREAD_MULTIPLE"};
        entries.put("thread_level", levels[p.threadLevel()]);
        entries.put("ompi_num_apps", "1");
        entries.put("ompi_first_rank", "0");
        entries.put("ompi_np", Integer.toString(p.size()));
    }

    private static String clip(String v) {
        return v.length() > MPI.MAX_INFO_VAL ? v.substring(0, MPI.MAX_INFO_VAL) : v;
    }

    private static void checkKey(String call, String key) throws MPIException {
        if (key == null || key.isEmpty() || key.length() > MPI.MAX_INFO_KEY) {
            throw error(call, ErrorClass.ERR_INFO_KEY, key == null ? "key is null"
                    : "key '" + key + "' of " + key.length() + " characters (valid: 1.."
                    + MPI.MAX_INFO_KEY + ")");
        }
    }

    private static MPIException error(String call, int cls, String reason) {
        return MPI.COMM_WORLD.raise(call, cls, reason);
    }
}
