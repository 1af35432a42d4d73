package org.verbatim.io;

import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.DatatypeException;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;

/**
 * A file view as a map from data bytes to file bytes (MPI-3.1 13.3): the filetype's blocks
 * (from the datatype engine's committed form) tiled every extent from the displacement. Data
 * byte {@code d} lies in tile {@code d / size}, in the block holding {@code d % size}.
 */
final class ViewMap {
    /** Most blocks a filetype may have (its block list is kept expanded). */
    static final long MAX_BLOCKS = 1 << 24;
    final long disp;
    final long etypeSize;
    private final long tileSize;
    private final long tileExtent;
    private final long[] blockOffset;
    private final long[] blockLength;
    /** Data bytes of the tile before block i. */
    private final long[] blockPrefix;
    private final boolean contiguous;

    private ViewMap(long disp, long etypeSize, long tileSize, long tileExtent, long[] blockOffset,
                    long[] blockLength, boolean contiguous) {
        this.disp = disp;
        this.etypeSize = etypeSize;
        this.tileSize = tileSize;
        this.tileExtent = tileExtent;
        this.blockOffset = blockOffset;
        this.blockLength = blockLength;
        this.blockPrefix = new long[blockOffset.length];
        for (int i = 1; i < blockOffset.length; i++) {
            blockPrefix[i] = blockPrefix[i - 1] + blockLength[i - 1];
        }
        this.contiguous = contiguous;
    }

    /** The view at open: bytes from the start of the file. */
    static ViewMap bytes() {
        return new ViewMap(0, 1, 1, 1, new long[] {0}, new long[] {1}, true);
    }

    /**
     * The view of {@code filetype} from {@code disp}, counted in {@code etype}s: refused
     * (MPI_ERR_TYPE) unless the filetype's blocks lie at non-negative, increasing, disjoint
     * offsets within its extent, as MPI requires of filetypes.
     */
    static ViewMap of(long disp, CommittedType etype, CommittedType filetype) {
        if (filetype.size() == 0) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the filetype holds no data");
        }
        if (filetype.isContiguous()) {
            long at = filetype.shape(1).blockOffset(0);
            if (at < 0) {
                throw new MpiError(ErrorClass.ERR_TYPE, "filetype data at negative offset " + at);
            }
            return new ViewMap(disp, etype.size(), filetype.size(), filetype.size(),
                    new long[] {at}, new long[] {filetype.size()}, at == 0);
        }
        long[][] blocks;
        try {
            blocks = filetype.shape(1).blocks(MAX_BLOCKS);
        } catch (DatatypeException e) {
            throw new MpiError(ErrorClass.ERR_TYPE, "filetype: " + e.getMessage());
        }
        long[] off = blocks[0];
        long[] len = blocks[1];
        long end = 0;
        for (int i = 0; i < off.length; i++) {
            if (off[i] < end) {
                throw new MpiError(ErrorClass.ERR_TYPE, "filetype blocks must lie at "
                        + "non-negative, increasing, disjoint offsets (block " + i + " at "
                        + off[i] + ")");
            }
            end = off[i] + len[i];
        }
        if (end > filetype.extent()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "filetype data reach byte " + end
                    + ", past its extent " + filetype.extent());
        }
        return new ViewMap(disp, etype.size(), filetype.size(), filetype.extent(), off, len,
                false);
    }

    /** Appends to {@code out} the file extents of data bytes [start, start + length). */
    void extents(long start, long length, Extents out) {
        if (length <= 0) {
            return;
        }
        if (contiguous) {
            out.add(disp + start, length);
            return;
        }
        long tile = start / tileSize;
        long in = start - tile * tileSize;
        int b = block(in);
        long left = length;
        while (left > 0) {
            long within = in - blockPrefix[b];
            long n = Math.min(left, blockLength[b] - within);
            out.add(disp + tile * tileExtent + blockOffset[b] + within, n);
            left -= n;
            in += n;
            if (++b == blockOffset.length) {
                b = 0;
                in = 0;
                tile++;
            }
        }
    }

    /** The file byte of data byte {@code d}. */
    long fileOffset(long d) {
        if (contiguous) {
            return disp + d;
        }
        long tile = d / tileSize;
        long in = d - tile * tileSize;
        int b = block(in);
        return disp + tile * tileExtent + blockOffset[b] + in - blockPrefix[b];
    }

    /** Data bytes that lie before file byte {@code fileSize} (for SEEK_END). */
    long dataBefore(long fileSize) {
        long rel = fileSize - disp;
        if (rel <= 0) {
            return 0;
        }
        if (contiguous) {
            return rel;
        }
        long tiles = rel / tileExtent;
        long rest = rel - tiles * tileExtent;
        long d = tiles * tileSize;
        for (int i = 0; i < blockOffset.length && blockOffset[i] < rest; i++) {
            d += Math.min(blockLength[i], rest - blockOffset[i]);
        }
        return d;
    }

    private int block(long in) {
        int lo = 0;
        int hi = blockPrefix.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (blockPrefix[mid] <= in) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
