package org.verbatim.transport.tcp;

import java.util.List;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** Lists the tcp settings for {@code mpirun --print-config} and the generated docs. */
public final class TcpSettingsProvider implements SettingsProvider {
    @Override
    public String area() {
        return "tcp";
    }

    @Override
    public List<Setting> settings() {
        return TcpConfiguration.SETTINGS;
    }
}
