package org.verbatim.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One documented configuration property: its name, default and a one-line description, and for a
 * setting that takes one of a few words, those words ({@link #choice}). Each module's
 * configuration class declares its settings as constants of this type; the list feeds
 * {@code mpirun --print-config}, docs/configuration.md and the check at MPI_Init
 * ({@link ConfigCheck}).
 *
 * <p>The kind of value follows from the declaration: the words of a choice, else a boolean when
 * the default is {@code true} or {@code false}, else a size when the default is a number with an
 * optional k, m or g suffix, else free text. A value of the wrong kind is a
 * {@link ConfigException} that names the setting, where it came from and what is allowed.
 *
 * @param name the property name, {@code verbatim.<area>.<name>}
 * @param defaultValue the value when neither a property nor a variable sets it
 * @param description one line for the generated documentation
 * @param allowed the words a choice accepts (lower case); empty for other kinds
 */
public record Setting(String name, String defaultValue, String description, List<String> allowed) {
    private static final List<String> BOOLEANS = List.of("true", "false", "1", "0", "yes", "no", "on", "off");

    /** A setting whose kind follows from its default (boolean, size or text). */
    public Setting(String name, String defaultValue, String description) {
        this(name, defaultValue, description, List.of());
    }

    public Setting {
        allowed = List.copyOf(allowed);
    }

    /** A setting that takes one of {@code allowed} (compared without case). */
    public static Setting choice(String name, String defaultValue, String description, String... allowed) {
        return new Setting(name, defaultValue, description, List.of(allowed));
    }

    /** The value in force: {@code config}'s, else the default. */
    public String get(Map<String, String> config) {
        return config.getOrDefault(name, defaultValue);
    }

    public int getInt(Map<String, String> config) {
        long v = getSize(config);
        if (v != (int) v) {
            throw ConfigException.badValue(this, get(config), "a number that fits in 32 bits");
        }
        return (int) v;
    }

    public boolean getBoolean(Map<String, String> config) {
        String v = get(config).trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw ConfigException.badValue(this, get(config), "one of " + String.join(", ", BOOLEANS));
        };
    }

    /** Parses an integer with an optional k, m or g suffix (powers of 1024). */
    public long getSize(Map<String, String> config) {
        String v = get(config).trim().toLowerCase(Locale.ROOT);
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
            return Math.multiplyExact(Long.parseLong(v), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw ConfigException.badValue(this, get(config), SIZE_TEXT);
        }
    }

    /** The word in force, lower case; one of {@link #allowed()}. */
    public String getChoice(Map<String, String> config) {
        String v = get(config).trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(v)) {
            throw ConfigException.badValue(this, get(config), "one of " + String.join(", ", allowed));
        }
        return v;
    }

    /** Checks the value in force against this setting's kind (see the class comment). */
    public void check(Map<String, String> config) {
        if (!config.containsKey(name)) {
            return;
        }
        if (!allowed.isEmpty()) {
            getChoice(config);
        } else if (BOOLEANS.subList(0, 2).contains(defaultValue)) {
            getBoolean(config);
        } else if (defaultValue.matches("-?\\d+[kmgKMG]?")) {
            getSize(config);
        }
    }

    private static final String SIZE_TEXT = "a whole number with an optional k, m or g suffix (for example 64k)";
}
