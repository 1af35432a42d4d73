package org.verbatim.launcher;

import java.util.List;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** A settings service registered by the tests, which --print-config must find. */
public final class ProbeSettings implements SettingsProvider {
    @Override
    public String area() {
        return "probe";
    }

    @Override
    public List<Setting> settings() {
        return List.of(new Setting("verbatim.probe.answer", "42", "the answer"),
                new Setting("verbatim.probe.question", "unknown", "the question"));
    }
}
