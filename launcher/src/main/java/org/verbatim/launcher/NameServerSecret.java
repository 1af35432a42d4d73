package org.verbatim.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import org.verbatim.bootstrap.JobSecret;

/**
 * The secret of a {@code bin/verbatim-nameserver}: every connection to it must present it
 * ({@code cmd=auth secret=S}) before any name command, as connections to mpirun's PMI service
 * present the job's secret. Without it, whoever reaches the name server's port could replace
 * a published port name with one of their own and be connected to in its place.
 *
 * <p>Where it comes from, for the server and for mpirun alike: {@value #VARIABLE} in the
 * environment, else a file ({@code --secret-file} of the server, {@code --nameserver-secret-file}
 * or {@value #FILE_VARIABLE} of mpirun) that only its owner may read (mode 0600 or stricter,
 * owned by this user; anything else is refused with a message saying why). The server creates
 * the file with a new secret when it does not exist, or, with neither, makes one and prints it.
 */
final class NameServerSecret {
    /** The variable that carries the secret itself. */
    static final String VARIABLE = "VERBATIM_NAMESERVER_SECRET";
    /** The variable that names a file holding the secret. */
    static final String FILE_VARIABLE = "VERBATIM_NAMESERVER_SECRET_FILE";

    private NameServerSecret() {
    }

    /**
     * The secret from {@code env} ({@value #VARIABLE}, else the file {@value #FILE_VARIABLE}
     * names), or null when neither is set. Throws IllegalArgumentException with the reason when
     * the file cannot be used.
     */
    static String of(Map<String, String> env) {
        String s = env.get(VARIABLE);
        if (s != null && !s.isBlank()) {
            return check(s.strip(), VARIABLE);
        }
        String file = env.get(FILE_VARIABLE);
        return file == null || file.isBlank() ? null : read(Path.of(file.strip()));
    }

    /** The secret in {@code file}, which must be this user's and private. */
    static String read(Path file) {
        try {
            checkPrivate(file);
            return check(Files.readString(file, StandardCharsets.UTF_8).strip(), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the name server's secret from " + file + ": " + e);
        }
    }

    /** The secret in {@code file}, made (0600, a new random secret) when the file does not exist. */
    static String readOrCreate(Path file) {
        String fresh = JobSecret.generate();
        try {
            // created 0600 (the umask can only take bits away) before anything is written into it
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, fresh + "\n", StandardCharsets.UTF_8, StandardOpenOption.WRITE);
            return fresh;
        } catch (FileAlreadyExistsException e) {
            return read(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot create the name server's secret file " + file + ": " + e);
        }
    }

    private static void checkPrivate(Path file) throws IOException {
        PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String me = System.getProperty("user.name");
        if (!a.isRegularFile()) {
            throw new IOException("not a regular file (a symbolic link or a directory)");
        }
        if (!a.owner().getName().equals(me)) {
            throw new IOException("owned by " + a.owner().getName() + ", not by " + me);
        }
        Set<PosixFilePermission> p = a.permissions();
        for (PosixFilePermission open : Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)) {
            if (p.contains(open)) {
                throw new IOException("mode " + PosixFilePermissions.toString(p) + " lets others read or "
                        + "write it (chmod 600)");
            }
        }
    }

    private static String check(String secret, String from) {
        try {
            return JobSecret.check(secret);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the name server's secret (" + from + ") must be printable "
                    + "ASCII without spaces or '='");
        }
    }
}
