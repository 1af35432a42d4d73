package org.verbatim.config;

import java.util.List;

/**
 * A module's list of settings, found with {@link java.util.ServiceLoader} so that
 * {@code mpirun --print-config} and the generated docs/configuration.md cover every module.
 */
public interface SettingsProvider {
    /** Area name, for example "core" or "shm". */
    String area();

    List<Setting> settings();
}
