package org.verbatim.mpitests;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Ports within one job: the two halves of COMM_WORLD (split) build an inter-communicator by
 * accept and connect through a port that rank 0 opens and publishes under a service name, run
 * every inter-communicator collective on it, merge it, disconnect it, and do it all once more on
 * the same port; then the bad input of the dynamic-process calls, which must give the MPI error
 * class on every rank and never hang.
 */
public final class PortProgram {
    private PortProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int me = w.getRank();
        int p = w.getSize();
        Checks c = new Checks(me);
        c.run("connect/accept between halves", () -> halves(c, w, me, p));
        c.run("bad input", () -> badInput(c, w));
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static void halves(Checks c, Intracomm w, int me, int p) throws MPIException {
        int group = me < p / 2 ? 0 : 1;
        Intracomm local = w.split(group, me);
        local.setErrhandler(MPI.ERRORS_RETURN);
        String service = "verbatim-port-test-" + p;
        String port = null;
        if (me == 0) {
            port = Intracomm.openPort();
            c.check("port name fits MPI_MAX_PORT_NAME", port.length() < MPI.MAX_PORT_NAME, port);
            Intracomm.publishName(service, port);
        }
        w.barrier();
        if (me == p / 2) {
            port = Intracomm.lookupName(service);
            c.check("lookupName finds the published port", port.startsWith("verbatim-port:"), port);
        }
        for (int round = 0; round < 2; round++) {
            Intercomm inter = group == 0 ? local.accept(port, 0) : local.connect(port, 0);
            inter.setErrhandler(MPI.ERRORS_RETURN);
            String tag = "round " + round;
            c.check(tag + ": isInter", inter.isInter(), "");
            c.equal(tag + ": local size", local.getSize(), inter.getSize());
            c.equal(tag + ": remote size", group == 0 ? p - p / 2 : p / 2, inter.getRemoteSize());
            c.equal(tag + ": rank", local.getRank(), inter.getRank());
            new InterCollectiveChecks(c, inter, group).runAll(tag);
            Intracomm merged = inter.merge(group == 1);
            c.equal(tag + ": merged size", p, merged.getSize());
            c.equal(tag + ": merged rank (group 0 first)", me, merged.getRank());
            int[] sum = new int[1];
            merged.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
            c.equal(tag + ": allReduce on the merged communicator", p * (p - 1) / 2, sum[0]);
            merged.free();
            inter.disconnect();
            c.check(tag + ": isNull after disconnect", inter.isNull(), "");
        }
        pendingAtDisconnect(c, local, group, port);
        if (me == 0) {
            Intracomm.unpublishName(service, port);
            Intracomm.closePort(port);
            c.pass("unpublishName and closePort");
        }
        w.barrier();
        local.free();
    }

    /**
     * MPI_Comm_disconnect with the program's own requests still open: matched ones (a
     * rendezvous-sized isend/irecv pair per rank) complete inside it and report their data
     * afterwards; a receive nobody matches (group 1's rank 0) makes its disconnect fail with
     * ERR_PENDING instead of waiting forever, and the other members are not held up.
     */
    private static void pendingAtDisconnect(Checks c, Intracomm local, int group, String port) throws MPIException {
        Intercomm inter = group == 0 ? local.accept(port, 0) : local.connect(port, 0);
        inter.setErrhandler(MPI.ERRORS_RETURN);
        int n = 1 << 18; // 1 MiB of ints: above every eager limit
        int me = inter.getRank();
        boolean paired = me < inter.getRemoteSize();
        java.nio.IntBuffer data = MPI.newIntBuffer(n);
        mpi.Request pending = null;
        if (paired && group == 0) {
            for (int i = 0; i < n; i++) {
                data.put(i, i ^ me);
            }
            pending = inter.iSend(data, n, MPI.INT, me, 7);
        } else if (paired) {
            pending = inter.iRecv(data, n, MPI.INT, me, 7);
        }
        mpi.Request orphan = null;
        java.nio.IntBuffer nothing = MPI.newIntBuffer(1);
        if (group == 1 && me == 0) {
            orphan = inter.iRecv(nothing, 1, MPI.INT, 0, 999); // nobody sends tag 999
            c.expectError("disconnect with a receive nobody matches", MPI.ERR_PENDING, "MPI_Comm_disconnect",
                    inter::disconnect);
        } else {
            inter.disconnect();
        }
        c.check("pending: isNull after disconnect", inter.isNull(), "");
        if (pending != null) {
            c.check("pending: the request completed inside disconnect", pending.test(), "");
            pending.waitFor();
            boolean right = true;
            for (int i = 0; i < n && group == 1; i++) {
                right &= data.get(i) == (i ^ me);
            }
            c.check("pending: the data arrived", right, "");
        }
        if (orphan != null) {
            orphan.cancel();
            mpi.Status s = orphan.waitStatus();
            c.check("pending: the unmatched receive can be cancelled afterwards", s.isCancelled(), "");
        }
        local.barrier();
    }

    private static void badInput(Checks c, Intracomm w) throws MPIException {
        // a well-formed name of a port nobody holds (nothing listens on TCP port 1)
        String stale = "verbatim-port:127.0.0.1:1:0123456789abcdef0123456789abcdef";
        c.expectError("connect to a port nobody holds", MPI.ERR_PORT, "MPI_Comm_connect",
                () -> w.connect(stale, 0));
        c.expectError("connect to a name that is no port", MPI.ERR_PORT, "MPI_Comm_connect",
                () -> w.connect("no such port", 0));
        c.expectError("accept on a port this process did not open", MPI.ERR_PORT, "MPI_Comm_accept",
                () -> w.accept(stale, 0));
        c.expectError("lookupName of an unpublished name", MPI.ERR_NAME, "MPI_Lookup_name",
                () -> Intracomm.lookupName("verbatim-never-published-" + c.rank()));
        c.expectError("unpublishName of an unpublished name", MPI.ERR_SERVICE, "MPI_Unpublish_name",
                () -> Intracomm.unpublishName("verbatim-never-published", "x"));
        c.expectError("closePort of a port never opened", MPI.ERR_PORT, "MPI_Close_port",
                () -> Intracomm.closePort(stale));
        c.expectError("connect with an invalid root", MPI.ERR_ROOT, "MPI_Comm_connect",
                () -> w.connect(stale, w.getSize()));
        if (c.rank() == 0) {
            String port = Intracomm.openPort();
            Intracomm.publishName("verbatim-twice", port);
            c.expectError("publishName of a name published already", MPI.ERR_SERVICE,
                    "MPI_Publish_name", () -> Intracomm.publishName("verbatim-twice", port));
            Intracomm.unpublishName("verbatim-twice", port);
            Intracomm.closePort(port);
        }
        w.barrier();
        c.pass("every rank came through the bad input (none waits for another)");
    }
}
