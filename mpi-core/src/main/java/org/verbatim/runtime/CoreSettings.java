package org.verbatim.runtime;

import java.util.List;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** Configuration of the MPI runtime (area "core"). */
public final class CoreSettings implements SettingsProvider {
    public static final Setting EAGER_LIMIT = new Setting("verbatim.core.eager-limit", "16k",
            "Largest message payload sent eagerly; larger ones use the rendezvous protocol "
                    + "(also capped by the transport's maximum eager size).");
    public static final Setting IDLE = Setting.choice("verbatim.core.idle", "auto",
            "What a waiting rank does when idle: spin, spin-yield (spin ~100 us, then "
                    + "sched_yield), yield (sched_yield on every idle pass), backoff (then park), "
                    + "block (sleep on the shm inbox's futex until a peer's message rings it), "
                    + "or auto (spin-yield while ranks per host <= cores, yield up to 4 ranks per "
                    + "core, backoff up to 8, block beyond).",
            "spin", "spin-yield", "yield", "backoff", "block", "auto");
    public static final Setting TRANSPORTS = new Setting("verbatim.core.transports", "",
            "Comma-separated transports to open (for example shm or ib); empty = all available.");
    public static final Setting READS_IN_FLIGHT = new Setting("verbatim.core.reads-in-flight",
            "4", "Rendezvous RDMA chunks kept in flight (pipelining): reads of an RGET receive, "
                    + "writes of an RPUT send.");
    public static final Setting RENDEZVOUS = Setting.choice("verbatim.core.rendezvous", "auto",
            "Rendezvous protocol for messages above the eager limit: rget (the receiver "
                    + "RDMA-reads), rput (the receiver's CTS carries its buffer; the sender "
                    + "RDMA-writes and closes with write-with-immediate or FIN), or auto (RPUT from "
                    + "verbatim.core.rput-threshold up when the transport writes natively, RGET "
                    + "below; whichever exists when only one does).", "rget", "rput", "auto");
    public static final Setting RPUT_THRESHOLD = new Setting("verbatim.core.rput-threshold",
            "256k", "With verbatim.core.rendezvous=auto: smallest message sent by RPUT when the "
                    + "transport has both native RDMA read and write done by an adapter (not by "
                    + "the CPU, as shm's cross-memory attach: RGET there).");
    public static final Setting DATATYPE_SCHEME = Setting.choice("verbatim.core.datatype-scheme",
            "auto", "How rendezvous-size messages of noncontiguous data (derived datatypes) move: "
                    + "generic (pack, send contiguous, unpack), bc-spup (segments packed through a "
                    + "pre-registered pack pool, written into the receiver's pre-registered unpack "
                    + "pool and unpacked as each lands: pack, transfer and unpack overlap), rwg-up "
                    + "(the same without packing: gather writes from the sender's blocks), multi-w "
                    + "(no packing: the sender writes from its blocks into the receiver's blocks, "
                    + "which the receiver's CTS names, its layout sent once), p-rrs (the receiver "
                    + "scatter-reads a contiguous or packed sender's data into its blocks), fragments "
                    + "(eager fragments: packed straight into the transport's eager records and "
                    + "unpacked straight out of them, up to verbatim.core.datatype-fragment-limit; "
                    + "generic above), or auto (by the median block size and the transport: see "
                    + "docs/datatypes.md, \"Selection\").",
            "auto", "generic", "bc-spup", "rwg-up", "multi-w", "p-rrs", "fragments");
    public static final Setting DATATYPE_FRAGMENT_LIMIT = new Setting(
            "verbatim.core.datatype-fragment-limit", "1m", "Largest noncontiguous message sent in "
                    + "eager fragments (auto: over shm; 0: never); larger ones take the scheme "
                    + "verbatim.core.datatype-scheme selects. A receiver buffers an unexpected one "
                    + "whole, as an eager message.");
    public static final Setting DATATYPE_POOL = new Setting("verbatim.core.datatype-pool", "4m",
            "Bytes of each of the pack and unpack pools of bc-spup and rwg-up (allocated and "
                    + "registered once, at first use); a message that finds them empty falls back to "
                    + "dynamic buffers.");
    public static final Setting DATATYPE_SEGMENT = new Setting("verbatim.core.datatype-segment",
            "128k", "Largest segment of bc-spup and rwg-up (the pools' unit); a message is cut "
                    + "into at least 4 segments of at least 8k where it is large enough.");
    public static final Setting DATATYPE_MIN_BLOCK = new Setting(
            "verbatim.core.datatype-min-block", "auto", "With verbatim.core.datatype-scheme=auto: "
                    + "the smallest median block (bytes) sent block by block instead of packed; auto "
                    + "is 8k where the CPU moves the data (shm) and 2k for an RDMA adapter.");
    public static final Setting DATATYPE_LIST_POST = new Setting(
            "verbatim.core.datatype-list-post", "true", "multi-w posts its RDMA writes as lists "
                    + "(one post of up to 64 work requests: one chained ibv_post_send on verbs, one "
                    + "process_vm_writev over shm); false: one post per write, the datatype paper's "
                    + "single post, for comparison.");
    public static final Setting PROFILE = new Setting("verbatim.core.profile", "false",
            "Count messages, volume, unexpected messages and communication memory (and the "
                    + "transports' counters); rank 0 prints the totals over the ranks at finalize.");
    public static final Setting PROFILE_RANKS = new Setting("verbatim.core.profile-ranks", "false",
            "With verbatim.core.profile: also print every rank's own counters, not only the job's "
                    + "totals that rank 0 prints.");
    public static final Setting CHECK_TYPES = new Setting("verbatim.core.check-types", "false",
            "Compare sender and receiver type signatures (MPI's type-matching rule): a message sent as INT "
                    + "and received as DOUBLE ends the receive with MPI_ERR_TYPE instead of delivering "
                    + "garbage. MPI.BYTE and MPI.PACKED match anything. Off: no cost.");
    public static final Setting PROTO_INFO = new Setting("verbatim.core.proto-info", "false",
            "Print the protocol selection (transport, eager limit, rendezvous) per peer at first use.");

    public static final Setting WARMUP = Setting.choice("verbatim.core.warmup", "auto",
            "MPI_Init's warm-up exchange with a partner (world ranks 2k and 2k+1, over whichever "
                    + "transport reaches it), so that the JVM compiles the point-to-point path before "
                    + "the program's first message: auto (on when the ranks spin, that is no more "
                    + "ranks on a host than cores, the profiler is off and the partner is reached "
                    + "over shm or tcp), on (also over ib), or off.",
            "auto", "on", "off");
    public static final Setting WARMUP_TRACE = new Setting("verbatim.core.warmup-trace", "false",
            "Print the warm-up's progress and duration (to see what it costs at MPI_Init).");

    @Override
    public String area() {
        return "core";
    }

    @Override
    public List<Setting> settings() {
        return List.of(EAGER_LIMIT, IDLE, TRANSPORTS, READS_IN_FLIGHT, RENDEZVOUS, RPUT_THRESHOLD,
                DATATYPE_SCHEME, DATATYPE_FRAGMENT_LIMIT, DATATYPE_MIN_BLOCK, DATATYPE_POOL, DATATYPE_SEGMENT, DATATYPE_LIST_POST, PROFILE, PROFILE_RANKS, CHECK_TYPES, PROTO_INFO, WARMUP, WARMUP_TRACE);
    }
}
