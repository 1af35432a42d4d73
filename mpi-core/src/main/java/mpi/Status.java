package mpi;

import org.verbatim.runtime.base.RequestState;

/** The status of a completed receive, probe or wait: source, tag, error, count, cancelled. */
public final class Status {
    private int source;
    private int tag;
    private int error;
    private long bytes;
    private boolean cancelled;
    private int index;

    Status(int source, int tag, int error, long bytes, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.bytes = bytes;
        this.cancelled = cancelled;
    }

    static Status of(RequestState r) {
        return new Status(r.source(), r.tag(), r.error(), r.bytes(), r.cancelled());
    }

    Status withIndex(int i) {
        this.index = i;
        return this;
    }

    /** Number of received elements of {@code datatype}; MPI.UNDEFINED if not a whole number. */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        datatype.check();
        if (datatype.byteSize == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % datatype.byteSize == 0 ? (int) (bytes / datatype.byteSize) : MPI.UNDEFINED;
    }

    /** True if the operation was cancelled (MPI_Test_cancelled). */
    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    /** Number of received base elements of {@code datatype}. */
    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        datatype.check();
        int base = datatype.base.size();
        return bytes % base == 0 ? (int) (bytes / base) : MPI.UNDEFINED;
    }

    /** As {@link #getElements}, as a {@link Count} (MPI_Get_elements_x). */
    public Count getElementsX(Datatype datatype) throws MPIException {
        return new Count(getElements(datatype));
    }

    /** Sets the element count, for generalized requests (MPI_Status_set_elements). */
    public void setElements(Datatype datatype, int count) throws MPIException {
        MPI.check();
        bytes = (long) count * datatype.base.size();
    }

    /** As {@link #setElements}, with a {@link Count} (MPI_Status_set_elements_x). */
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        MPI.check();
        bytes = count.getCount() * datatype.base.size();
    }

    /** Sets the cancelled flag, for generalized requests (MPI_Status_set_cancelled). */
    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
    }

    /** The rank that sent the message (MPI_SOURCE). */
    public int getSource() {
        return source;
    }

    /** The message's tag (MPI_TAG). */
    public int getTag() {
        return tag;
    }

    /** The error code of the operation ({@link MPI#SUCCESS} if it succeeded). */
    public int getError() {
        return error;
    }

    /**
     * The index of the request this status belongs to, in the array given to a wait-any/some or
     * test-any/some call.
     */
    public int getIndex() {
        return index;
    }

    /** Source, tag, error and length, for debugging. */
    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + "]";
    }
}
