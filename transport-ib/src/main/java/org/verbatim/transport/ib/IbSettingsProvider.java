package org.verbatim.transport.ib;

import java.util.List;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** Lists the ib settings for {@code mpirun --print-config} and the generated docs. */
public final class IbSettingsProvider implements SettingsProvider {
    @Override
    public String area() {
        return "ib";
    }

    @Override
    public List<Setting> settings() {
        return IbConfiguration.SETTINGS;
    }
}
