package org.verbatim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigCheckTest {
    private static final Setting FLAG = new Setting("verbatim.demo.flag", "false", "a boolean");
    private static final Setting SIZE = new Setting("verbatim.demo.size", "16k", "a size");
    private static final Setting MODE = Setting.choice("verbatim.demo.mode", "auto", "a choice", "auto", "fast");
    private static final Setting TEXT = new Setting("verbatim.demo.dir", "/dev/shm", "free text");
    private static final List<SettingsProvider> PROVIDERS = List.of(new SettingsProvider() {
        @Override
        public String area() {
            return "demo";
        }

        @Override
        public List<Setting> settings() {
            return List.of(FLAG, SIZE, MODE, TEXT);
        }
    });

    @Test
    void eachKindRefusesWhatItCannotParseNamingTheSettingAndTheAllowedValues() {
        assertEquals("VERBATIM_DEMO_FLAG=maybe is not valid for verbatim.demo.flag; allowed: one of true, false, "
                + "1, 0, yes, no, on, off", refused(Map.of("verbatim.demo.flag", "maybe")));
        assertEquals("VERBATIM_DEMO_SIZE=12q is not valid for verbatim.demo.size; allowed: a whole number with an "
                + "optional k, m or g suffix (for example 64k)", refused(Map.of("verbatim.demo.size", "12q")));
        assertEquals("VERBATIM_DEMO_MODE=slow is not valid for verbatim.demo.mode; allowed: one of auto, fast",
                refused(Map.of("verbatim.demo.mode", "slow")));
        ConfigCheck.validate(Map.of("verbatim.demo.flag", "on", "verbatim.demo.size", "2m",
                "verbatim.demo.mode", "FAST", "verbatim.demo.dir", "anything"), PROVIDERS);
    }

    @Test
    void unknownNamesGetTheClosestKnownNameInTheirOwnForm() {
        Properties props = new Properties();
        props.setProperty("verbatim.demo.mdoe", "fast");
        props.setProperty("verbatim.demo.mode", "fast");
        props.setProperty("other.property", "x");
        List<String> warnings = ConfigCheck.unknownNames(Map.of("VERBATIM_DEMO_SIZ", "1", "VERBATIM_DEMO_FLAG", "1",
                "PATH", "/bin"), props, PROVIDERS);
        assertEquals(List.of(
                "verbatim: warning: VERBATIM_DEMO_SIZ is not a Verbatim setting; did you mean VERBATIM_DEMO_SIZE?",
                "verbatim: warning: -Dverbatim.demo.mdoe is not a Verbatim setting; did you mean verbatim.demo.mode?"),
                warnings);
    }

    @Test
    void scriptVariablesAndAreasOfAbsentModulesAreNotWarnedAbout() {
        List<String> warnings = ConfigCheck.unknownNames(Map.of("VERBATIM_JDK", "/opt/jdk",
                "VERBATIM_MPIRUN_JVM_OPTS", "-Xmx1g", "VERBATIM_LAUNCHER_AOT", "false", "VERBATIM_IB_DEVICE", "mlx5_0",
                "VERBATIM_DMEO_FLAG", "1", "VERBATIM_NONSENSE_ENTIRELY_DIFFERENT_THING", "1"),
                new Properties(), PROVIDERS);
        assertEquals(List.of(
                "verbatim: warning: VERBATIM_DMEO_FLAG is not a Verbatim setting; did you mean VERBATIM_DEMO_FLAG?",
                "verbatim: warning: VERBATIM_NONSENSE_ENTIRELY_DIFFERENT_THING is not a Verbatim setting "
                        + "(mpirun --print-config lists them)"), warnings);
    }

    @Test
    void everySettingOnTheClassPathAcceptsItsOwnDefault() {
        List<SettingsProvider> all = ConfigCheck.providers();
        for (SettingsProvider p : all) {
            for (Setting s : p.settings()) {
                s.check(Map.of(s.name(), s.defaultValue()));
            }
        }
    }

    private static String refused(Map<String, String> config) {
        return assertThrows(ConfigException.class, () -> ConfigCheck.validate(config, PROVIDERS)).getMessage();
    }
}
