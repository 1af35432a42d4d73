package mpi;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.verbatim.bootstrap.PmiClient;
import org.verbatim.bootstrap.PmiWire;
import org.verbatim.runtime.base.ErrorClass;

/**
 * MPI_Comm_spawn and MPI_Comm_spawn_multiple: the root opens a port, asks the process manager
 * to start the children as a new world ({@code cmd=spawn}, the children get the port in
 * {@code PMI_PARENT_PORT}) and accepts on the port; the children's MPI_Init connects to it
 * from their COMM_WORLD ({@link #connectToParents}), so the two worlds share an
 * inter-communicator: the parents' result, the children's {@link Intercomm#getParent}.
 *
 * <p>Info keys honoured: {@code wdir} (the children's working directory), {@code path} (where
 * the command is looked up), {@code host} (hosts as {@code mpirun --host} takes them, {@code
 * h1:2,h2}; others than this one get their ranks over ssh), {@code add-host} (the same, when
 * {@code host} is not given), {@code hostfile} (a file of hosts as {@code mpirun --hostfile}
 * reads). Others are ignored, as MPI allows.
 */
final class Spawn {
    /** The environment variable that carries the parents' port to the children. */
    static final String PARENT_PORT = "PMI_PARENT_PORT";

    private Spawn() {
    }

    static Intercomm spawn(Intracomm comm, String[] commands, String[][] argv, int[] maxprocs,
                           Info[] info, int root, int[] errcodes, String call) throws MPIException {
        MPI.check();
        comm.checkUsable(call);
        boolean atRoot = comm.rank == root;
        List<String> fields = new ArrayList<>();
        int total = 0;
        MPIException invalid = null;
        if (atRoot) {
            try {
                total = describe(commands, argv, maxprocs, info, fields, call);
            } catch (MPIException e) {
                invalid = e; // reported through the collective, so no member waits for nothing
            }
        }
        final MPIException refused = invalid;
        final int children = total;
        Intercomm ic = ConnectAccept.run(comm, root, call, mine -> {
            if (refused != null) {
                throw refused;
            }
            String port;
            try {
                port = Ports.open();
            } catch (IOException e) {
                throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": cannot open a port: "
                        + e.getMessage());
            }
            try {
                if (comm.process.bootstrap() instanceof PmiClient pmi && !pmi.verbatimLauncher()) {
                    MpichSpawn.spawn(pmi, commands, argv, maxprocs, info, port, call);
                } else {
                    List<String> request = new ArrayList<>(fields);
                    add(request, "port", port);
                    Map<String, String> reply;
                    try {
                        reply = comm.process.bootstrap().service("spawn", request.toArray(String[]::new));
                    } catch (RuntimeException e) {
                        throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": the process manager cannot "
                                + "spawn: " + e.getMessage());
                    }
                    if (!"0".equals(reply.get("rc"))) {
                        throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": "
                                + PmiWire.decode(reply.getOrDefault("msg", "refused")));
                    }
                }
                ServerSocket server = Ports.server(port);
                Ports.Address a = Ports.parse(port);
                PortExchange.Side theirs = PortExchange.accept(server, a.token(), mine, Connect::report);
                if (theirs.cards().size() != children) {
                    throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": " + theirs.cards().size()
                            + " children connected, " + children + " were spawned");
                }
                return theirs;
            } catch (IOException e) {
                throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": the children did not connect: "
                        + e.getMessage());
            } finally {
                Ports.close(port);
            }
        });
        if (errcodes != null) {
            java.util.Arrays.fill(errcodes, 0, Math.min(errcodes.length, ic.remote.length),
                    MPI.SUCCESS);
        }
        return ic;
    }

    /** MPI_Init of a spawned child: the inter-communicator to the parents, or null. */
    static Intercomm connectToParents() throws MPIException {
        String given = System.getenv(PARENT_PORT);
        if ((given == null || given.isEmpty()) && MPI.process().bootstrap() instanceof PmiClient pmi
                && !pmi.verbatimLauncher()) {
            try {
                given = MpichSpawn.parentPort(pmi); // spawned by another PMI-1 process manager
            } catch (RuntimeException e) {
                throw MPIException.of(ErrorClass.ERR_SPAWN, "MPI_Init: spawned (PMI_SPAWNED=1) but the "
                        + "parents' port (" + MpichSpawn.PARENT_KEY + ") cannot be read: " + e.getMessage());
            }
        }
        if (given == null || given.isEmpty()) {
            return null;
        }
        String port = given;
        if (given.startsWith("pmi:")) {
            // children started on another host: the port is kept out of command lines, in the
            // world's key-value space under the key named here
            try {
                port = MPI.process().bootstrap().get(given.substring(4));
            } catch (RuntimeException e) {
                throw MPIException.of(ErrorClass.ERR_SPAWN, "MPI_Init: cannot fetch the parents' port ("
                        + PARENT_PORT + "=" + given + "): " + e.getMessage());
            }
        }
        final String parents = port;
        return ConnectAccept.run(MPI.COMM_WORLD, 0, "MPI_Init (connecting to the parents)",
                mine -> Connect.exchange(parents, mine, "MPI_Init"));
    }

    /** Checks the root's arguments and writes them as spawn fields; returns the child count. */
    private static int describe(String[] commands, String[][] argv, int[] maxprocs, Info[] info,
                                List<String> fields, String call) throws MPIException {
        if (commands == null || maxprocs == null || commands.length == 0
                || maxprocs.length != commands.length
                || (argv != null && argv.length != commands.length)
                || (info != null && info.length != commands.length)) {
            throw MPIException.of(ErrorClass.ERR_ARG, call + ": commands, argv, maxprocs and info "
                    + "must have one entry per command");
        }
        int total = 0;
        add(fields, "count", Integer.toString(commands.length));
        for (int i = 0; i < commands.length; i++) {
            if (commands[i] == null || commands[i].isBlank()) {
                throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": command " + i + " is empty");
            }
            if (maxprocs[i] < 1) {
                throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": maxprocs " + maxprocs[i]
                        + " for command " + commands[i] + " (at least 1)");
            }
            total += maxprocs[i];
            add(fields, "cmd" + i, commands[i]);
            String[] args = argv == null || argv[i] == null ? new String[0] : argv[i];
            add(fields, "argc" + i, Integer.toString(args.length));
            for (int j = 0; j < args.length; j++) {
                add(fields, "arg" + i + "_" + j, args[j]);
            }
            add(fields, "maxprocs" + i, Integer.toString(maxprocs[i]));
            Info in = info == null ? null : info[i];
            for (String key : new String[] {"wdir", "path", "host", "hostfile"}) {
                String v = in == null || in.isNull() ? null : in.get(key);
                if (v == null && key.equals("host") && in != null && !in.isNull()) {
                    v = in.get("add-host"); // Open MPI's: hosts added for this spawn, used as host
                }
                if (v != null) {
                    add(fields, key + i, v);
                }
            }
        }
        return total;
    }

    private static void add(List<String> fields, String key, String value) {
        fields.add(key);
        fields.add(PmiWire.encode(value));
    }
}
