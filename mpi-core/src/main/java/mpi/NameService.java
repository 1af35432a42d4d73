package mpi;

import java.util.Map;
import org.verbatim.bootstrap.PmiWire;
import org.verbatim.runtime.base.ErrorClass;

/**
 * MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name: requests to the process manager
 * ({@code cmd=publish_name}, {@code lookup_name}, {@code unpublish_name}), which keeps the names
 * of its job, or forwards them to a standalone {@code bin/verbatim-nameserver} shared by several
 * mpiruns ({@code mpirun --nameserver}).
 */
final class NameService {
    private NameService() {
    }

    static void publish(String service, String port) throws MPIException {
        String call = "MPI_Publish_name";
        checkArgs(call, service, port);
        Map<String, String> r = request(call, ErrorClass.ERR_SERVICE, "publish_name",
                "service", PmiWire.encode(service), "port", PmiWire.encode(port));
        checkRc(call, r, ErrorClass.ERR_SERVICE);
    }

    static void unpublish(String service, String port) throws MPIException {
        String call = "MPI_Unpublish_name";
        checkArgs(call, service, port);
        Map<String, String> r = request(call, ErrorClass.ERR_SERVICE, "unpublish_name",
                "service", PmiWire.encode(service), "port", PmiWire.encode(port));
        checkRc(call, r, ErrorClass.ERR_SERVICE);
    }

    static String lookup(String service) throws MPIException {
        String call = "MPI_Lookup_name";
        checkArgs(call, service, "");
        Map<String, String> r = request(call, ErrorClass.ERR_NAME, "lookup_name",
                "service", PmiWire.encode(service));
        checkRc(call, r, ErrorClass.ERR_NAME);
        return PmiWire.decode(r.getOrDefault("port", "%"));
    }

    private static void checkArgs(String call, String service, String port) throws MPIException {
        if (service == null || service.isEmpty() || port == null) {
            throw MPI.COMM_WORLD.raise(call, ErrorClass.ERR_ARG, service == null || service.isEmpty()
                    ? "service name is null or empty" : "port name is null");
        }
    }

    private static Map<String, String> request(String call, int errorClass, String cmd,
                                               String... fields) throws MPIException {
        try {
            return MPI.process().bootstrap().service(cmd, fields);
        } catch (RuntimeException e) {
            throw MPI.COMM_WORLD.raise(call, errorClass, "the name service is not available: "
                    + e.getMessage());
        }
    }

    private static void checkRc(String call, Map<String, String> r, int errorClass)
            throws MPIException {
        if (!"0".equals(r.get("rc"))) {
            throw MPI.COMM_WORLD.raise(call, errorClass,
                    PmiWire.decode(r.getOrDefault("msg", "refused")));
        }
    }
}
