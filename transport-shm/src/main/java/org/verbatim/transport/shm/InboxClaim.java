package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.RecordDescriptor.HEADER_LENGTH;

import org.verbatim.spi.EagerClaim;

/**
 * Commit and abort of an eager message claimed straight in a peer's inbox
 * ({@link ShmEndpoint#claim}): the claim is a record reserved with {@link MpscRing#claim}, its
 * token the record's offset. Commit publishes it as a MESSAGE; abort publishes it as PADDING,
 * which the consumer drops. Either way the record is published, because the consumer cannot
 * pass a claimed record that is never published: a claim holds up everything behind it in the
 * inbox until it is committed or aborted. One per endpoint, reused by every claim.
 */
final class InboxClaim implements EagerClaim.Owner {
    private final MpscRing ring;
    private final int myRank;

    InboxClaim(MpscRing ring, int myRank) {
        this.ring = ring;
        this.myRank = myRank;
    }

    @Override
    public void commit(EagerClaim claim) {
        ring.commit(claim.token(), RecordDescriptor.TYPE_MESSAGE, myRank, HEADER_LENGTH + claim.length());
    }

    @Override
    public void abort(EagerClaim claim) {
        ring.abandon(claim.token(), HEADER_LENGTH + claim.length());
    }
}
