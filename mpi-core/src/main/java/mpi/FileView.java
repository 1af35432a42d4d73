package mpi;

/** A file view as {@link File#getView()} returns it: displacement, etype, filetype, data representation. */
public final class FileView {
    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    /**
     * A view: data start {@code disp} bytes into the file, laid out as {@code filetype} tiled
     * from there, counted in {@code etype}s, in representation {@code datarep}.
     *
     * @param disp     displacement in bytes
     * @param etype    elementary type
     * @param filetype file type
     * @param datarep  data representation ("native", "internal" or "external32", as given to
     *                 {@link File#setView})
     */
    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    /**
     * The displacement.
     *
     * @return bytes from the start of the file to the start of the view
     */
    public long getDisp() {
        return disp;
    }

    /**
     * The elementary type.
     *
     * @return the etype
     */
    public Datatype getEType() {
        return etype;
    }

    /**
     * The file type.
     *
     * @return the filetype
     */
    public Datatype getFileType() {
        return filetype;
    }

    /**
     * The data representation.
     *
     * @return the datarep string
     */
    public String getDataRep() {
        return datarep;
    }
}
