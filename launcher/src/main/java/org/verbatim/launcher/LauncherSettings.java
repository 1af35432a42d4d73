package org.verbatim.launcher;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** Configuration of mpirun itself (area "launcher"), read from mpirun's own environment. */
public final class LauncherSettings implements SettingsProvider {
    public static final Setting AOT = new Setting("verbatim.launcher.aot", "true",
            "mpirun starts the ranks of the -cp/-jar shorthand with a JDK AOT cache of Verbatim's classes "
                    + "and method profiles, recorded once per build by a 2-rank training job (seconds) and "
                    + "kept in verbatim.launcher.aot-dir; --aot and --no-aot override it. Read by mpirun "
                    + "from its own environment, as the other launcher settings (not passed with -x).");
    public static final Setting AOT_PROFILES = new Setting("verbatim.launcher.aot-profiles", "true",
            "Whether the AOT cache holds the training's method profiles (JEP 515) as well as the classes: "
                    + "they make a cold JVM's first messages faster (over tcp the first 10,000 round trips "
                    + "~1.3-1.9x), and a derived datatype's pack and unpack of short blocks slower (64-column "
                    + "vector: 0.55-0.7x); false records a cache of the classes only, under its own key.");
    public static final Setting AOT_TRAINING_SECONDS = new Setting("verbatim.launcher.aot-training-seconds",
            "20", "Time budget of the AOT training workload; on a machine so busy that it runs out, the "
                    + "training ends early and records what it profiled so far.");
    public static final Setting AOT_DIR = new Setting("verbatim.launcher.aot-dir", "",
            "Directory of the AOT caches; empty = $XDG_CACHE_HOME/verbatim/aot, else "
                    + "~/.cache/verbatim/aot. Remove it to clear them.");

    public static final Setting LEAN_JVM = Setting.choice("verbatim.launcher.lean-jvm", "auto",
            "JVM options for the ranks of the -cp/-jar shorthand that cut start-up CPU where many ranks "
                    + "share each core: the client compiler only (-XX:TieredStopAtLevel=1) and the serial "
                    + "GC, each unless the program's own JVM options choose otherwise. auto: when this host "
                    + "runs more than 4 ranks per core (a 64-rank job on 2 cores: 40% less CPU per rank); "
                    + "on: always; off: never (C1-only code is slower for long computations).",
            "auto", "on", "off");

    public static final Setting YOUNG_GEN = new Setting("verbatim.launcher.young-gen", "off",
            "The first young-generation size of the ranks of the -cp/-jar shorthand (-XX:NewSize), so that "
                    + "the first collection comes early and allocation then reuses mapped pages: a window "
                    + "of nonblocking messages otherwise pays a page fault per 4 KiB of fresh heap for its "
                    + "first ~100 MB (8 B windows of 64: 52-58 ns per iSend instead of 35-41). Only the "
                    + "first size, not a cap; left out when the program's own options size the young "
                    + "generation, give a heap under 64 MiB or pick another collector than serial, "
                    + "parallel or G1. A size (16m) or off (the default until an A/B against main decides it: one run in the far-core phase measured windows 0.77x and the ping-pong 1.15x of main with 16m).");

    public static final Setting SSH = new Setting("verbatim.launcher.ssh", "ssh",
            "The command (and its options, separated by spaces) that starts mpirun on the other hosts "
                    + "of a --host/--hostfile job; the host name and the remote command are appended, as "
                    + "Open MPI's plm_rsh_agent. Example: \"ssh -p 2222 -i ~/.ssh/cluster_key\".");
    public static final Setting PMI_ADDRESS = new Setting("verbatim.launcher.pmi-address", "",
            "The address of this host that the other hosts of a --host/--hostfile job reach mpirun's PMI "
                    + "service at; empty = the address of the interface that routes to the first other host.");
    public static final Setting NAMESERVER = new Setting("verbatim.launcher.nameserver", "",
            "HOST:PORT of a bin/verbatim-nameserver that keeps the names of MPI_Publish_name for several "
                    + "mpiruns (as mpirun --nameserver); empty = mpirun keeps its job's names itself.");

    @Override
    public String area() {
        return "launcher";
    }

    @Override
    public List<Setting> settings() {
        return List.of(AOT, AOT_PROFILES, AOT_DIR, AOT_TRAINING_SECONDS, LEAN_JVM, YOUNG_GEN, SSH, PMI_ADDRESS, NAMESERVER);
    }

    /** mpirun's own configuration: its system properties and VERBATIM_* environment. */
    static Map<String, String> current() {
        return org.verbatim.config.ConfigSource.load();
    }
}
