package org.verbatim.launcher;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.verbatim.bootstrap.PmiWire;

/**
 * Published service names (MPI_Publish_name): service to port name. Serves the three commands
 * of the name service, the same lines whether a rank sends them to its mpirun or an mpirun
 * forwards them to {@code bin/verbatim-nameserver}:
 *
 * <pre>
 * cmd=publish_name service=S port=P    -> cmd=publish_result rc=0 info=ok | rc=-1 msg=...
 * cmd=lookup_name service=S            -> cmd=lookup_result rc=0 info=ok port=P | rc=-1 msg=...
 * cmd=unpublish_name service=S port=P  -> cmd=unpublish_result rc=0 info=ok | rc=-1 msg=...
 * </pre>
 *
 * (the reply names of MPICH's PMI-1 wire protocol, so a client can speak to either);
 * fields encoded as {@link PmiWire#encode} does. A name published twice is refused, as
 * MPI allows; unpublishing needs the port it was published with.
 */
final class NameTable {
    private final Map<String, String> ports = new ConcurrentHashMap<>();

    /** True for the commands this table serves. */
    static boolean serves(String cmd) {
        return cmd.equals("publish_name") || cmd.equals("lookup_name") || cmd.equals("unpublish_name");
    }

    /** The reply's command name for a name-service command, as PMI-1 names them. */
    static String resultOf(String cmd) {
        return switch (cmd) {
            case "publish_name" -> "publish_result";
            case "lookup_name" -> "lookup_result";
            case "unpublish_name" -> "unpublish_result";
            default -> cmd + "_result";
        };
    }

    /** The reply line to a name-service command (see the class comment). */
    String handle(String cmd, Map<String, String> fields) {
        String service = fields.get("service");
        String port = fields.get("port");
        String result = resultOf(cmd);
        if (service == null) {
            return refuse(result, "no service name");
        }
        String shown = PmiWire.decode(service);
        switch (cmd) {
            case "publish_name" -> {
                if (port == null) {
                    return refuse(result, "no port name");
                }
                String before = ports.putIfAbsent(service, port);
                return before == null ? PmiWire.format(result, "rc", "0", "info", "ok")
                        : refuse(result, "service '" + shown + "' is published already");
            }
            case "lookup_name" -> {
                String p = ports.get(service);
                return p != null ? PmiWire.format(result, "rc", "0", "info", "ok", "port", p)
                        : refuse(result, "service '" + shown + "' is not published");
            }
            case "unpublish_name" -> {
                return port != null && ports.remove(service, port) ? PmiWire.format(result, "rc", "0", "info", "ok")
                        : refuse(result, "service '" + shown + "' is not published with that port");
            }
            default -> {
                return refuse(result, "unknown name-service command " + cmd);
            }
        }
    }

    private static String refuse(String result, String why) {
        return PmiWire.format(result, "rc", "-1", "msg", PmiWire.encode(why));
    }
}
