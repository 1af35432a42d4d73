package org.verbatim.config;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Reads Verbatim's configuration: every {@code verbatim.<area>.<name>} system property, and every
 * {@code VERBATIM_<AREA>_<NAME>} environment variable, which maps to the property name by
 * lower-casing it, turning the first two underscores into dots and the others into dashes
 * ({@code VERBATIM_SHM_RING_SIZE} is {@code verbatim.shm.ring-size}). System properties win.
 */
public final class ConfigSource {
    private ConfigSource() {
    }

    /** The effective configuration of this process. */
    public static Map<String, String> load() {
        return merge(System.getenv(), System.getProperties());
    }

    static Map<String, String> merge(Map<String, String> env, Properties properties) {
        Map<String, String> result = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("VERBATIM_")) {
                result.put(propertyName(k), v);
            }
        });
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith("verbatim.")) {
                result.put(name, properties.getProperty(name));
            }
        }
        return result;
    }

    /**
     * How the user gave {@code value} for {@code propertyName}, for messages: {@code -Dname=value}
     * when the system property is set, else {@code VERBATIM_NAME=value}.
     */
    public static String origin(String propertyName, String value) {
        return System.getProperty(propertyName) != null ? "-D" + propertyName + "=" + value
                : environmentName(propertyName) + "=" + value;
    }

    /** {@code VERBATIM_SHM_RING_SIZE} to {@code verbatim.shm.ring-size}. */
    public static String propertyName(String environmentName) {
        String lower = environmentName.toLowerCase(Locale.ROOT);
        StringBuilder sb = new StringBuilder(lower.length());
        int underscores = 0;
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (c == '_') {
                sb.append(underscores++ < 2 ? '.' : '-');
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** {@code verbatim.shm.ring-size} to {@code VERBATIM_SHM_RING_SIZE}. */
    public static String environmentName(String propertyName) {
        return propertyName.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
    }
}
