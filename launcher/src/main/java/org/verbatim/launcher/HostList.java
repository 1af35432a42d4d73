package org.verbatim.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.verbatim.bootstrap.HostInfo;

/**
 * The hosts of a job and their slots, in Open MPI's syntax: {@code --host h1:4,h2:4} (a host
 * without a count has one slot) and {@code --hostfile FILE} (lines {@code h1 slots=4}, a host
 * alone has one slot, {@code #} starts a comment, {@code max_slots=} is accepted and ignored).
 * A host named twice gets the sum of its slots, in the place of its first mention.
 */
final class HostList {
    /** One host and how many ranks it takes before the job oversubscribes. */
    record Entry(String host, int slots) {
    }

    private HostList() {
    }

    /** Parses {@code --host} values ({@code h1:4,h2} ...), appending to {@code into}. */
    static void parseHostOption(String spec, List<Entry> into) {
        for (String word : spec.split(",")) {
            String w = word.strip();
            if (w.isEmpty()) {
                throw new IllegalArgumentException("--host " + spec + ": empty host name");
            }
            int colon = w.lastIndexOf(':');
            boolean ipv6 = w.indexOf(':') != colon; // a bare IPv6 address: no slot count
            if (colon > 0 && !ipv6) {
                into.add(new Entry(w.substring(0, colon), slots("--host " + w, w.substring(colon + 1))));
            } else if (colon == 0) {
                throw new IllegalArgumentException("--host " + spec + ": empty host name");
            } else {
                into.add(new Entry(w, 1));
            }
        }
    }

    /** Parses a hostfile, appending to {@code into}; errors name the file and line. */
    static void parseHostfile(Path file, List<Entry> into) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--hostfile " + file + ": cannot read it (" + e.getMessage() + ")");
        }
        int n = 0;
        for (String raw : lines) {
            n++;
            int hash = raw.indexOf('#');
            String line = (hash < 0 ? raw : raw.substring(0, hash)).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            int slots = 1;
            for (int i = 1; i < words.length; i++) {
                String w = words[i];
                if (w.startsWith("slots=")) {
                    slots = slots(file + " line " + n, w.substring(6));
                } else if (!w.startsWith("max_slots=") && !w.startsWith("max-slots=")) {
                    throw new IllegalArgumentException("--hostfile " + file + " line " + n + ": unknown word '" + w
                            + "' (expected: host [slots=N] [max_slots=N])");
                }
            }
            into.add(new Entry(words[0], slots));
        }
        if (n == 0 || into.isEmpty()) {
            throw new IllegalArgumentException("--hostfile " + file + " names no host");
        }
    }

    /** Merges entries of the same host (summing slots) and keeps the order of first mention. */
    static List<Entry> merged(List<Entry> entries) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (Entry e : entries) {
            slots.merge(e.host(), e.slots(), Integer::sum);
        }
        List<Entry> out = new ArrayList<>();
        slots.forEach((h, s) -> out.add(new Entry(h, s)));
        return Collections.unmodifiableList(out);
    }

    private static int slots(String where, String v) {
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new IllegalArgumentException(where + ": slots must be a positive integer, got '" + v + "'");
    }

    /**
     * True if {@code host} is this machine: {@code localhost}, this host's name (short or
     * full), or an address that one of this machine's interfaces carries. Any other name,
     * 127.0.0.2 included, is started over ssh.
     */
    static boolean isLocal(String host) {
        String me = HostInfo.hostName();
        String shortMe = me.contains(".") ? me.substring(0, me.indexOf('.')) : me;
        if (host.equals("localhost") || host.equals(me) || host.equals(shortMe)) {
            return true;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "' (not in DNS or /etc/hosts)");
        }
        try {
            for (InetAddress a : addresses) {
                if (NetworkInterface.getByInetAddress(a) != null) {
                    return true;
                }
            }
        } catch (SocketException e) {
            return false;
        }
        return false;
    }
}
