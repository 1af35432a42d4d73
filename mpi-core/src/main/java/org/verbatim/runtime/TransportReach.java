package org.verbatim.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportProvider;

/**
 * MPI_Init's check that some opened transport reaches every peer, so that a class path without
 * a transport fails at once, naming the missing module, instead of at the first send.
 */
final class TransportReach {
    /** The module that carries each transport a user may be missing. */
    private static final Map<String, String> MODULES = Map.of(
            "shm", "verbatim-transport-shm",
            "ib", "verbatim-transport-ib (with verbatim-transport-verbs and verbatim-verbs-binding)");

    private TransportReach() {
    }

    /** Throws MpiError naming what is missing when a peer has no transport. */
    static void check(int rank, String[] hosts, List<Transport> opened, Map<String, String> config) {
        for (int peer = 0; peer < hosts.length; peer++) {
            if (peer == rank || reached(opened, peer)) {
                continue;
            }
            boolean sameHost = hosts[peer].equals(hosts[rank]);
            String wanted = sameHost ? "shm" : "ib";
            throw new MpiError(ErrorClass.ERR_OTHER, "no transport reaches rank " + peer
                    + (sameHost ? " on this host (" : " on host " + hosts[peer] + " (")
                    + "opened: " + opened.stream().map(Transport::name).toList() + "): "
                    + why(wanted, sameHost, config));
        }
    }

    private static boolean reached(List<Transport> opened, int peer) {
        for (Transport t : opened) {
            if (t.reaches(peer)) {
                return true;
            }
        }
        return false;
    }

    private static String why(String wanted, boolean sameHost, Map<String, String> config) {
        List<String> found = new ArrayList<>();
        for (TransportProvider p : ServiceLoader.load(TransportProvider.class)) {
            found.add(p.name());
            if (p.name().equals(wanted)) {
                String selected = CoreSettings.TRANSPORTS.get(config).trim();
                if (!selected.isEmpty() && !List.of(selected.split("\\s*,\\s*")).contains(wanted)) {
                    return "transport " + wanted + " is left out by " + CoreSettings.TRANSPORTS.name()
                            + "=" + selected;
                }
                return "transport " + wanted + " is unavailable: "
                        + p.unavailabilityCause().orElse("it does not reach that rank");
            }
        }
        return "the " + (sameHost ? "shared-memory" : "network") + " transport is not on the class path"
                + " (found: " + found + "); add the module " + MODULES.get(wanted)
                + " (bin/mpirun -cp and -jar add every Verbatim jar)";
    }
}
