package org.verbatim.config;

import java.util.Map;

/**
 * One documented configuration property: its name, default and a one-line description. Each
 * module's configuration class declares its settings as constants of this type; the list feeds
 * {@code mpirun --print-config} and docs/configuration.md.
 */
public record Setting(String name, String defaultValue, String description) {

    public String get(Map<String, String> config) {
        return config.getOrDefault(name, defaultValue);
    }

    public int getInt(Map<String, String> config) {
        return (int) getSize(config);
    }

    public boolean getBoolean(Map<String, String> config) {
        String v = get(config).trim().toLowerCase(java.util.Locale.ROOT);
        return switch (v) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new IllegalArgumentException(name + ": not a boolean: " + v);
        };
    }

    /** Parses an integer with an optional k, m or g suffix (powers of 1024). */
    public long getSize(Map<String, String> config) {
        String v = get(config).trim().toLowerCase(java.util.Locale.ROOT);
        long unit = 1;
        if (v.endsWith("k")) {
            unit = 1L << 10;
        } else if (v.endsWith("m")) {
            unit = 1L << 20;
        } else if (v.endsWith("g")) {
            unit = 1L << 30;
        }
        if (unit != 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            return Long.parseLong(v) * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a number: " + get(config), e);
        }
    }
}
