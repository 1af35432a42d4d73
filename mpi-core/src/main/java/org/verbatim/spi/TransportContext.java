package org.verbatim.spi;

import java.util.Map;
import org.verbatim.bootstrap.Bootstrap;

/**
 * What a transport gets when it opens: who we are, how to exchange addresses, where completions
 * go, and the job's configuration.
 *
 * @param rank      world rank of this process
 * @param size      world size
 * @param hosts     host name of every world rank (index = rank), for locality decisions
 * @param bootstrap key-value space and barrier (collective: every rank opens the same transports)
 * @param handler   receives messages and completions
 * @param config    effective configuration (verbatim.* properties)
 */
public record TransportContext(int rank, int size, String[] hosts, Bootstrap bootstrap,
                               CompletionHandler handler, Map<String, String> config) {

    /** True if world rank {@code peer} runs on this host. */
    public boolean sameHost(int peer) {
        return hosts[peer].equals(hosts[rank]);
    }

    public String config(String key, String defaultValue) {
        return config.getOrDefault(key, defaultValue);
    }
}
