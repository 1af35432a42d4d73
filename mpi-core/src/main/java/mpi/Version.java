package mpi;

/** The MPI standard version implemented, as returned by {@link MPI#getVersion()}. */
public final class Version {
    private final int version;
    private final int subVersion;

    protected Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /** The major version of the MPI standard. */
    public int getVersion() {
        return version;
    }

    /** The minor version of the MPI standard. */
    public int getSubVersion() {
        return subVersion;
    }
}
