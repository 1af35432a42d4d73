package org.verbatim.transport.shm;

import java.util.List;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** Lists the shm settings for {@code mpirun --print-config} and the generated docs. */
public final class ShmSettingsProvider implements SettingsProvider {
    @Override
    public String area() {
        return "shm";
    }

    @Override
    public List<Setting> settings() {
        return ShmConfiguration.SETTINGS;
    }
}
