package org.verbatim.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Predicate;
import org.verbatim.config.ConfigSource;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/**
 * Generates docs/configuration.md from every module's settings (the SettingsProvider services
 * on the launcher's class path, which is every rank's class path). A test keeps the committed
 * file in step: run it with -Dverbatim.docs.update=true to rewrite the file.
 */
public final class ConfigDocs {
    private ConfigDocs() {
    }

    /** The markdown text for every settings provider found. */
    public static String render() {
        return render(p -> true);
    }

    /** The markdown text for the providers {@code include} accepts. */
    public static String render(Predicate<SettingsProvider> include) {
        List<SettingsProvider> providers = new ArrayList<>();
        ServiceLoader.load(SettingsProvider.class).forEach(p -> {
            if (include.test(p)) {
                providers.add(p);
            }
        });
        providers.sort(Comparator.comparing(SettingsProvider::area));
        StringBuilder sb = new StringBuilder();
        sb.append("# Configuration\n\n")
                .append("Generated from the settings declared in the code (`ConfigDocs`); do not edit.\n\n")
                .append("Each setting is a system property (`-Dverbatim.core.eager-limit=32k`) or an ")
                .append("environment variable (`VERBATIM_CORE_EAGER_LIMIT=32k`; system properties win). ")
                .append("Sizes take a k, m or g suffix (powers of 1024). `bin/mpirun --print-config` ")
                .append("shows the values in force; `mpirun -x NAME=value` passes one to every rank. ")
                .append("`MPI_Init` checks every value first: a boolean takes true/false/1/0/yes/no/on/off, ")
                .append("a numeric default means a whole number (with that suffix), and a setting that ")
                .append("lists its words takes only those; anything else ends the job with one line ")
                .append("naming the setting and what it allows (status 78). A `VERBATIM_*` variable or ")
                .append("`verbatim.*` property that names no setting gets a warning with the closest name.\n");
        for (SettingsProvider p : providers) {
            sb.append("\n## ").append(p.area()).append("\n\n")
                    .append("| Property | Environment | Default | Meaning |\n")
                    .append("|---|---|---|---|\n");
            for (Setting s : p.settings()) {
                sb.append("| `").append(s.name()).append("` | `")
                        .append(ConfigSource.environmentName(s.name())).append("` | `")
                        .append(s.defaultValue()).append("` | ")
                        .append(s.description().replace("|", "\\|")).append(" |\n");
            }
        }
        return sb.toString();
    }

    /** Writes the page: {@code ConfigDocs <path-to-configuration.md>}. */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
        Files.writeString(out, render());
    }
}
