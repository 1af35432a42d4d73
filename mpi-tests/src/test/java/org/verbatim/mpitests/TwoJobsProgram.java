package org.verbatim.mpitests;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * One side of two separate jobs (two mpiruns sharing a name server) that connect: {@code
 * server} opens a port at rank 0 and publishes it, {@code client} looks it up (waiting for the
 * server to publish) and connects; both run every inter-communicator collective (the server is
 * group 0), disconnect, and the server withdraws the name.
 */
public final class TwoJobsProgram {
    static final String SERVICE = "verbatim-two-jobs";

    private TwoJobsProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        Checks c = new Checks(w.getRank());
        boolean server = args[0].equals("server");
        c.run(args[0], () -> run(c, w, server));
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static void run(Checks c, Intracomm w, boolean server) throws Exception {
        String port = null;
        Intercomm inter;
        if (server) {
            if (w.getRank() == 0) {
                port = Intracomm.openPort();
                Intracomm.publishName(SERVICE, port);
            }
            inter = w.accept(port, 0);
        } else {
            if (w.getRank() == 0) {
                port = lookUp(SERVICE, 60_000);
                c.check("the client finds the server's port", port != null, "not published in 60 s");
            }
            inter = w.connect(port, 0);
        }
        inter.setErrhandler(MPI.ERRORS_RETURN);
        c.check("the other job is the remote group", inter.getRemoteSize() >= 1, "");
        new InterCollectiveChecks(c, inter, server ? 0 : 1).runAll("two jobs");
        Intercomm copy = inter.dup();
        copy.setErrhandler(MPI.ERRORS_RETURN);
        new InterCollectiveChecks(c, copy, server ? 0 : 1).runAll("dup across jobs");
        copy.free();
        Intracomm merged = inter.merge(!server);
        int[] sizes = new int[1];
        merged.allReduce(new int[] {1}, sizes, 1, MPI.INT, MPI.SUM);
        c.equal("merge across jobs: one communicator of both", inter.getSize() + inter.getRemoteSize(),
                sizes[0]);
        c.equal("merge across jobs: server ranks first", server ? w.getRank()
                : inter.getRemoteSize() + w.getRank(), merged.getRank());
        merged.free();
        inter.disconnect();
        c.check("isNull after disconnect", inter.isNull(), "");
        if (server && w.getRank() == 0) {
            Intracomm.unpublishName(SERVICE, port);
            Intracomm.closePort(port);
        }
    }

    /** Looks {@code service} up until it is published or {@code millis} pass. */
    static String lookUp(String service, long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < end) {
            try {
                return Intracomm.lookupName(service);
            } catch (MPIException e) {
                Thread.sleep(100);
            }
        }
        return null;
    }
}
