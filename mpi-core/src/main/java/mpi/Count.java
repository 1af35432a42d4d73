package mpi;

/** A large count (MPI_Count), returned by {@link Status#getElementsX}. */
@SuppressWarnings("rawtypes")
public final class Count implements Comparable {
    private long count;

    /** A count of elements that may exceed the range of an int. */
    public Count(long count) {
        this.count = count;
    }

    /** The value. */
    public long getCount() {
        return count;
    }

    /** Sets the value. */
    public void setCount(long count) {
        this.count = count;
    }

    /** True for another Count of the same value. */
    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count c && c.count == count;
    }

    /** A hash of the value. */
    @Override
    public int hashCode() {
        return super.hashCode();
    }

    /** Orders counts by value. */
    @Override
    public int compareTo(Object obj) {
        if (!(obj instanceof Count c)) {
            return -1;
        }
        return Long.compare(count, c.count) < 0 ? -1 : (count == c.count ? 0 : 1);
    }
}
