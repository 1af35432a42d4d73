package mpi;

import org.verbatim.runtime.base.ErrorClass;

/**
 * The data representations a file view can take (MPI-4.1 14.5): "native" (memory bytes as they
 * are), "internal" (implementation-defined: Verbatim's is the native layout, so a file written
 * with either reads back with the other) and "external32" (big-endian, the sizes of the
 * standard's table; see {@link FileExternal32}).
 *
 * <p>The names match case-insensitively, as "native" always has in Verbatim: a superset of
 * ROMIO, which takes the all-lower and all-upper spellings ("external32", "EXTERNAL32");
 * {@link File#getView()} returns the string as given. There is no {@code registerDatarep}:
 * Open MPI's Java bindings have no MPI_Register_datarep.
 */
enum FileDatarep {
    NATIVE("native"),
    INTERNAL("internal"),
    EXTERNAL32("external32");

    private final String name;

    FileDatarep(String name) {
        this.name = name;
    }

    /** The standard's name of this representation. */
    String standardName() {
        return name;
    }

    /** True when data change their bytes between memory and file (external32). */
    boolean converts() {
        return this == EXTERNAL32;
    }

    /**
     * The representation named {@code datarep}.
     *
     * @throws MPIException ERR_UNSUPPORTED_DATAREP for null or a name that is none of the three
     */
    static FileDatarep of(String datarep) throws MPIException {
        if (datarep != null) {
            for (FileDatarep d : values()) {
                if (d.name.equalsIgnoreCase(datarep)) {
                    return d;
                }
            }
        }
        throw MPIException.of(ErrorClass.ERR_UNSUPPORTED_DATAREP, "data representation "
                + (datarep == null ? "null" : "\"" + datarep + "\"") + " (Verbatim has \"native\", "
                + "\"internal\" and \"external32\"; user representations cannot be registered)");
    }
}
