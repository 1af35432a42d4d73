package org.verbatim.transport.shm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second local user for the privacy tests: {@value #NAME}, made with useradd when this process
 * is root and it does not exist yet. Commands run as that user through setpriv (util-linux).
 */
final class SecondUser {
    static final String NAME = "verbatim-other";

    final int uid;
    final int gid;

    private SecondUser(int uid, int gid) {
        this.uid = uid;
        this.gid = gid;
    }

    /** The user, or null with {@link #whyNot} set when none can be had here. */
    static SecondUser obtain() {
        try {
            if (ProcessUser.uid() != 0) {
                whyNot = "not root (uid " + ProcessUser.uid() + "): cannot switch to a second user";
                return null;
            }
            if (run(List.of("id", "-u", NAME)).status != 0) {
                Result made = run(List.of("useradd", "--system", "--no-create-home",
                        "--shell", "/usr/sbin/nologin", NAME));
                if (made.status != 0) {
                    whyNot = "useradd " + NAME + " failed: " + made.output.strip();
                    return null;
                }
            }
            int uid = Integer.parseInt(run(List.of("id", "-u", NAME)).output.strip());
            int gid = Integer.parseInt(run(List.of("id", "-g", NAME)).output.strip());
            return new SecondUser(uid, gid);
        } catch (IOException | RuntimeException e) {
            whyNot = "no second user: " + e;
            return null;
        }
    }

    static String whyNot = "";

    /** Runs {@code command} as this user; its status and combined output. */
    Result runAs(String... command) throws IOException {
        List<String> full = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid,
                "--clear-groups", "--"));
        full.addAll(List.of(command));
        return run(full);
    }

    record Result(int status, String output) {
    }

    static Result run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command + " did not end within 30 s");
            }
            return new Result(p.exitValue(), out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
