package org.verbatim.bootstrap;

import java.io.IOException;

/** A line-oriented connection to a PMI-1 server. Not thread-safe: the client serialises calls. */
interface PmiChannel extends AutoCloseable {
    /** Sends one line; the newline is added here. */
    void writeLine(String line) throws IOException;

    /** Reads one line without its newline; throws {@link java.io.EOFException} at end of stream. */
    String readLine() throws IOException;

    /** Where this channel goes, for error messages ("PMI_FD 5", "PMI_PORT host:1234"). */
    String describe();

    @Override
    void close() throws IOException;
}
