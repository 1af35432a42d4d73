package org.verbatim.launcher;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.verbatim.config.ConfigSource;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/** {@code mpirun --print-config}: every setting of every module found, with the value in force. */
final class ConfigPrinter {
    private ConfigPrinter() {
    }

    /**
     * Prints the settings of all {@link SettingsProvider} services on the class path. Values come
     * from mpirun's own system properties and environment plus the {@code -x} variables, which is
     * what the ranks see.
     */
    static void print(PrintStream out, Map<String, String> extraEnvironment) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(extraEnvironment);
        Map<String, String> config = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("VERBATIM_")) {
                config.put(ConfigSource.propertyName(k), v);
            }
        });
        config.putAll(ConfigSource.load().entrySet().stream()
                .filter(e -> System.getProperty(e.getKey()) != null)
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        List<SettingsProvider> providers = new ArrayList<>();
        ServiceLoader.load(SettingsProvider.class).forEach(providers::add);
        providers.sort(Comparator.comparing(SettingsProvider::area));
        if (providers.isEmpty()) {
            out.println("# no Verbatim settings found on the class path (is the project built?)");
        }
        for (SettingsProvider p : providers) {
            out.println("# " + p.area());
            for (Setting s : p.settings()) {
                String value = s.get(config);
                String origin = config.containsKey(s.name()) ? "set" : "default";
                out.printf("%s=%s    # %s; %s (%s)%n", s.name(), value, origin, s.description(),
                        ConfigSource.environmentName(s.name()));
            }
        }
        out.flush();
    }
}
