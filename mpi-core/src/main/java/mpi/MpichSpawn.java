package mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.verbatim.bootstrap.PmiClient;
import org.verbatim.bootstrap.PmiWire;
import org.verbatim.runtime.base.ErrorClass;

/**
 * MPI_Comm_spawn under a PMI-1 process manager that is not Verbatim's mpirun, such as MPICH's
 * mpiexec.hydra: its own spawn ({@link PmiClient#spawnMpich}), the parents' port put into the
 * children's key-value space under MPICH's key {@value #PARENT_KEY}, which a child reads in
 * MPI_Init when the process manager says it was spawned ({@code PMI_SPAWNED=1}).
 *
 * <p>The command {@code java} means this JVM's java with {@code --enable-native-access} and the
 * parents' class path (unless the arguments give their own {@code -cp}/{@code -jar}), as under
 * Verbatim's mpirun. Info keys {@code wdir}, {@code path}, {@code host} go to the process
 * manager as they are (Hydra's own keys).
 */
final class MpichSpawn {
    /** MPICH's key for the parents' port in the children's key-value space. */
    static final String PARENT_KEY = "PARENT_ROOT_PORT_NAME";

    private MpichSpawn() {
    }

    /** Asks the process manager to start the children; ERR_SPAWN when it refuses. */
    static void spawn(PmiClient pmi, String[] commands, String[][] argv, int[] maxprocs, Info[] info, String port,
                      String call) throws MPIException {
        List<List<String>> blocks = new ArrayList<>();
        for (int i = 0; i < commands.length; i++) {
            List<String> args = new ArrayList<>();
            String exec = commands[i];
            String[] given = argv == null || argv[i] == null ? new String[0] : argv[i];
            if (exec.equals("java")) {
                exec = System.getProperty("java.home") + "/bin/java";
                args.add("--enable-native-access=ALL-UNNAMED");
                boolean own = List.of(given).stream().anyMatch(a -> a.equals("-cp") || a.equals("-classpath")
                        || a.equals("--class-path") || a.equals("-jar"));
                if (!own) {
                    args.add("-cp");
                    args.add(System.getProperty("java.class.path"));
                }
            }
            args.addAll(List.of(given));
            List<String> b = new ArrayList<>(List.of("nprocs=" + maxprocs[i], "execname=" + exec,
                    "totspawns=" + commands.length, "spawnssofar=" + (i + 1), "argcnt=" + args.size()));
            for (int j = 0; j < args.size(); j++) {
                b.add("arg" + (j + 1) + "=" + args.get(j));
            }
            b.add("preput_num=1");
            b.add("preput_key_0=" + PARENT_KEY);
            b.add("preput_val_0=" + PmiWire.encode(port));
            List<String> keys = new ArrayList<>();
            Info in = info == null ? null : info[i];
            for (String key : new String[] {"wdir", "path", "host"}) {
                String v = in == null || in.isNull() ? null : in.get(key);
                if (v != null) {
                    keys.add(key);
                    keys.add(v);
                }
            }
            b.add("info_num=" + keys.size() / 2);
            for (int k = 0; k < keys.size(); k += 2) {
                b.add("info_key_" + k / 2 + "=" + keys.get(k));
                b.add("info_val_" + k / 2 + "=" + keys.get(k + 1));
            }
            blocks.add(b);
        }
        Map<String, String> reply;
        try {
            reply = pmi.spawnMpich(blocks);
        } catch (RuntimeException e) {
            throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": the process manager (PMI-1, not Verbatim's "
                    + "mpirun) cannot spawn: " + e.getMessage());
        }
        if (!"0".equals(reply.get("rc"))) {
            throw MPIException.of(ErrorClass.ERR_SPAWN, call + ": the process manager (PMI-1, not Verbatim's "
                    + "mpirun) refused the spawn: rc=" + reply.get("rc")
                    + (reply.containsKey("msg") ? " " + reply.get("msg") : ""));
        }
    }

    /** In a child's MPI_Init: the parents' port when the process manager says it spawned us, else null. */
    static String parentPort(PmiClient pmi) {
        if (!"1".equals(System.getenv("PMI_SPAWNED"))) {
            return null;
        }
        return pmi.get(PARENT_KEY);
    }
}
