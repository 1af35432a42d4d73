package org.verbatim.runtime.coll;

import org.verbatim.runtime.Engine;

/**
 * Who takes part in one collective: the engine, the communicator's collective context, this
 * process's rank in the group, and the world rank of each group rank that messages go to.
 * For intercommunicators {@code peers} is the remote group.
 */
public record CollGroup(Engine engine, int context, int rank, int[] peers, CollSettings settings) {
    public int size() {
        return peers.length;
    }
}
