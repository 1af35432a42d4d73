package org.verbatim.onesided;

/**
 * The four fence designs of the fence-synchronization paper, selected with
 * {@code verbatim.rma.fence}.
 */
enum FenceDesign {
    /** Queue every operation until the closing fence; learn the counts with a reduce-scatter
     *  (an allreduce of per-target counts); send them all two-sided. No overlap. */
    DEF("def"),
    /** Issue at once; a finish message on every channel used; learn how many finishes to await;
     *  flag messages from every process to every other open the next epoch. */
    IMM_NAIVE("imm-naive"),
    /** As IMM_NAIVE, but a barrier opens the next epoch. */
    IMM_OPT("imm-opt"),
    /** Issue at once, puts counted where they land (RDMA write with immediate where the transport
     *  has it natively, counted records otherwise); an allreduce tells each target how many to
     *  await; a barrier opens the next epoch. */
    IMM_RI("imm-ri"),
    /** IMM_RI where every peer's transport writes with immediate natively, else IMM_OPT. */
    AUTO("auto");

    private final String key;

    FenceDesign(String key) {
        this.key = key;
    }

    String key() {
        return key;
    }

    boolean immediate() {
        return this != DEF;
    }

    static FenceDesign parse(String s) {
        for (FenceDesign d : values()) {
            if (d.key.equalsIgnoreCase(s.trim())) {
                return d;
            }
        }
        throw new IllegalArgumentException("verbatim.rma.fence: unknown design '" + s
                + "' (def, imm-naive, imm-opt, imm-ri or auto)");
    }
}
