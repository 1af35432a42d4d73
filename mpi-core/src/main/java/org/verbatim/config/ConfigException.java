package org.verbatim.config;

/**
 * A configuration value that its setting does not accept. The message is one line for the user:
 * where the value came from, the setting's name and what it allows.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String setting;

    public ConfigException(String setting, String message) {
        super(message);
        this.setting = setting;
    }

    /** The property name of the setting ({@code verbatim.core.idle}). */
    public String setting() {
        return setting;
    }

    static ConfigException badValue(Setting s, String value, String allowed) {
        return new ConfigException(s.name(), ConfigSource.origin(s.name(), value) + " is not valid for "
                + s.name() + "; allowed: " + allowed);
    }
}
