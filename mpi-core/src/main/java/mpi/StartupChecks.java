package mpi;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.config.ConfigCheck;
import org.verbatim.config.ConfigException;
import org.verbatim.config.ConfigSource;
import org.verbatim.config.SettingsProvider;

/**
 * MPI_Init's checks of the configuration, before any transport opens: a value that its setting
 * refuses ends the job with one line (from rank 0) naming the setting and what it allows, and
 * rank 0 warns once per unknown {@code VERBATIM_*} variable or {@code verbatim.*} property.
 */
final class StartupChecks {
    /** sysexits' EX_CONFIG; mpirun prints no line of its own for it. */
    static final int CONFIG_STATUS = 78;
    /** How long a rank other than 0 waits for rank 0's line (and the job's end) before its own. */
    private static final long OTHERS_WAIT_MILLIS = 3000;

    private StartupChecks() {
    }

    /** The configuration in force, checked; does not return when a value is refused. */
    static Map<String, String> configuration(Bootstrap bootstrap) {
        Map<String, String> config = ConfigSource.load();
        List<SettingsProvider> providers = ConfigCheck.providers();
        try {
            ConfigCheck.validate(config, providers);
        } catch (ConfigException e) {
            refuse(bootstrap.rank(), e);
        }
        if (bootstrap.rank() == 0) {
            for (String warning : ConfigCheck.unknownNames(System.getenv(), System.getProperties(), providers)) {
                System.err.println(warning);
            }
        }
        return config;
    }

    /**
     * Every rank sees the same bad value (the launcher gives every rank the same settings): rank 0
     * says it and exits, and the launcher ends the others while they wait, so the job prints one
     * line. A rank whose value differs from rank 0's speaks after the wait.
     */
    private static void refuse(int rank, ConfigException e) {
        if (rank != 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(OTHERS_WAIT_MILLIS);
            } catch (InterruptedException ignored) {
                // say it now
            }
        }
        System.out.flush();
        System.err.println("verbatim: " + (rank != 0 ? "rank " + rank + ": " : "") + e.getMessage());
        System.err.flush();
        Runtime.getRuntime().halt(CONFIG_STATUS);
    }
}
