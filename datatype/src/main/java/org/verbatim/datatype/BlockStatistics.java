package org.verbatim.datatype;

/**
 * The blocks of a message, summarised for choosing a transfer scheme (the datatype paper picks
 * by mean and median block size: several KB favour zero-copy writes, small blocks packing).
 *
 * @param blocks number of blocks
 * @param bytes  bytes in all of them
 * @param mean   mean block size in bytes
 * @param median median block size in bytes
 * @param min    smallest block
 * @param max    largest block
 */
public record BlockStatistics(long blocks, long bytes, double mean, double median, long min,
                              long max) {
}
