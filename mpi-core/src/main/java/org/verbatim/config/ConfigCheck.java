package org.verbatim.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * MPI_Init's look at the configuration before anything starts: every value of a known setting
 * must be of its kind ({@link Setting#check}), and a {@code VERBATIM_*} variable or
 * {@code verbatim.*} property that names no setting gets a warning with the closest known name
 * (a typo otherwise goes unnoticed and the default silently applies).
 */
public final class ConfigCheck {
    /**
     * Areas of modules that may be absent from a rank's class path (the launcher's settings are
     * read by mpirun, not by the ranks): a name in one of them is not reported unless that
     * area's module is present.
     */
    private static final Set<String> MODULE_AREAS = Set.of("core", "coll", "shm", "ib", "verbs",
            "launcher", "tcp", "iwarp", "datatype", "onesided");
    /** Variables of the bin/ scripts and the launcher's job secret, which are not settings. */
    private static final Set<String> SCRIPT_VARIABLES = Set.of("VERBATIM_JDK", "VERBATIM_MIN_JDK",
            "VERBATIM_MPIRUN_JVM_OPTS", org.verbatim.bootstrap.JobSecret.VARIABLE);

    private ConfigCheck() {
    }

    /** Every setting of every {@link SettingsProvider} on the class path. */
    public static List<SettingsProvider> providers() {
        List<SettingsProvider> all = new ArrayList<>();
        ServiceLoader.load(SettingsProvider.class).forEach(all::add);
        return all;
    }

    /** Throws {@link ConfigException} for the first value that its setting does not accept. */
    public static void validate(Map<String, String> config, List<SettingsProvider> providers) {
        for (SettingsProvider p : providers) {
            for (Setting s : p.settings()) {
                s.check(config);
            }
        }
    }

    /** One warning line per unknown name among {@code env}'s and {@code properties}' Verbatim names. */
    public static List<String> unknownNames(Map<String, String> env, Properties properties,
                                            List<SettingsProvider> providers) {
        Set<String> known = new HashSet<>();
        Set<String> areas = new HashSet<>();
        for (SettingsProvider p : providers) {
            areas.add(p.area());
            p.settings().forEach(s -> known.add(s.name()));
        }
        List<String> warnings = new ArrayList<>();
        env.keySet().stream().sorted().forEach(variable -> {
            if (variable.startsWith("VERBATIM_") && !SCRIPT_VARIABLES.contains(variable)) {
                String name = ConfigSource.propertyName(variable);
                if (unknown(name, known, areas)) {
                    String near = closest(name, known);
                    warnings.add(warning(variable, near == null ? null : ConfigSource.environmentName(near)));
                }
            }
        });
        properties.stringPropertyNames().stream().sorted().forEach(name -> {
            if (name.startsWith("verbatim.") && unknown(name, known, areas)) {
                warnings.add(warning("-D" + name, closest(name, known)));
            }
        });
        return warnings;
    }

    private static boolean unknown(String name, Set<String> known, Set<String> areas) {
        if (known.contains(name)) {
            return false;
        }
        String[] parts = name.split("\\.", 3);
        String area = parts.length > 1 ? parts[1] : "";
        return areas.contains(area) || !MODULE_AREAS.contains(area);
    }

    private static String warning(String given, String near) {
        return "verbatim: warning: " + given + " is not a Verbatim setting"
                + (near == null ? " (mpirun --print-config lists them)" : "; did you mean " + near + "?");
    }

    /** The known name nearest to {@code name} (edit distance), or null when none is near. */
    static String closest(String name, Set<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known.stream().sorted().toList()) {
            int d = distance(name, k);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= Math.max(3, name.length() / 3) ? best : null;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
