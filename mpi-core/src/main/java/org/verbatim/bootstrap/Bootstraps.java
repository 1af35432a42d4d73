package org.verbatim.bootstrap;

import java.util.Map;

/** Chooses the bootstrap for this process from its environment. */
public final class Bootstraps {
    private Bootstraps() {
    }

    /**
     * A {@link Pmi2Client} under Slurm's {@code srun --mpi=pmi2}, a {@link PmiClient} when a PMI-1 process manager started us (PMI_FD or PMI_PORT set), else a
     * {@link SingletonBootstrap}. A PMI client watches its process manager and ends this process
     * when it is gone ({@link PmiClient#watchLauncher()}). Refuses, with a clear message, a launch by a manager that speaks
     * only PMIx (Open MPI's mpirun), where a singleton would silently run N separate jobs.
     */
    public static Bootstrap fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    static Bootstrap fromEnvironment(Map<String, String> env) {
        if (Pmi2Client.isAvailable(env)) {
            Pmi2Client client = Pmi2Client.connect(env);
            client.watchLauncher();
            return client;
        }
        if (PmiClient.isAvailable(env)) {
            PmiClient client = PmiClient.connect(env);
            client.watchLauncher();
            return client;
        }
        String foreignSize = env.getOrDefault("OMPI_COMM_WORLD_SIZE", env.get("PMIX_SIZE"));
        if (env.containsKey("PMIX_RANK") || (foreignSize != null && !foreignSize.equals("1"))) {
            throw new BootstrapException("started by a PMIx-only process manager (Open MPI's mpirun?); Verbatim "
                    + "bootstraps over PMI-1: use Verbatim's bin/mpirun or MPICH's mpiexec.hydra");
        }
        return new SingletonBootstrap();
    }
}
