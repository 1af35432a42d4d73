package org.verbatim.transport.iwarp;

import java.util.List;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** Lists the iwarp settings for {@code mpirun --print-config} and the generated docs. */
public final class IwarpSettingsProvider implements SettingsProvider {
    @Override
    public String area() {
        return "iwarp";
    }

    @Override
    public List<Setting> settings() {
        return IwarpConfiguration.SETTINGS;
    }
}
