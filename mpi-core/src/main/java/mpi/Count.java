package mpi;

/** A large count (MPI_Count), returned by {@link Status#getElementsX}. */
@SuppressWarnings("rawtypes")
public final class Count implements Comparable {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    @Override
    public int compareTo(Object obj) {
        if (!(obj instanceof Count c)) {
            return -1;
        }
        return Long.compare(count, c.count) < 0 ? -1 : (count == c.count ? 0 : 1);
    }
}
