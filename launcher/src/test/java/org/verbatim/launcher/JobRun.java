package org.verbatim.launcher;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One in-process mpirun run with every rank's output captured, for assertions and failure reports. */
record JobRun(int status, String out, String err, Duration elapsed) {
    /** The hard limit given to every test job through --timeout. */
    static final int JOB_TIMEOUT_SECONDS = 60;

    /** The job secret of the in-process mpiruns, as if exported for a --listen/--join pair by hand. */
    static final String TEST_SECRET = "5ec2e75ec2e75ec2e75ec2e75ec2e700";

    static JobRun mpirun(String... args) throws InterruptedException {
        java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put(org.verbatim.bootstrap.JobSecret.VARIABLE, TEST_SECRET);
        return mpirunWith(env, args);
    }

    /** mpirun in this JVM with {@code env} as its environment. */
    static JobRun mpirunWith(java.util.Map<String, String> env, String... args) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int status = Mpirun.run(args, out, err, false, env);
        return new JobRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** mpirun arguments running {@link BootstrapProbe} on {@code ranks} ranks, with a hard time limit. */
    static String[] probe(int ranks, String... probeArgs) {
        List<String> a = new ArrayList<>(List.of("-np", Integer.toString(ranks), "--timeout", Integer.toString(JOB_TIMEOUT_SECONDS)));
        a.addAll(probeCommand(probeArgs));
        return a.toArray(String[]::new);
    }

    /** The command that starts a probe rank on a JDK >= 25 with the test class path. */
    static List<String> probeCommand(String... probeArgs) {
        List<String> a = new ArrayList<>(List.of(javaExecutable(), "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), BootstrapProbe.class.getName()));
        a.addAll(List.of(probeArgs));
        return a;
    }

    static String javaExecutable() {
        return System.getProperty("java.home") + "/bin/java";
    }

    /** The /dev/shm files the probe ranks reported creating. */
    List<String> shmFiles() {
        List<String> files = new ArrayList<>();
        Matcher m = Pattern.compile("shm file (\\S+)").matcher(out);
        while (m.find()) {
            files.add(m.group(1));
        }
        return files;
    }

    /** Everything, for assertion messages; stderr first, where a failure's cause shows. */
    String report() {
        return "status " + status + " after " + elapsed.toMillis() + " ms\n--- stderr ---\n" + err
                + "--- stdout ---\n" + out;
    }
}
