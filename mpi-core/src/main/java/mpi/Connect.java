package mpi;

import java.io.IOException;
import java.net.ServerSocket;
import org.verbatim.runtime.base.ErrorClass;

/** The root's part of MPI_Comm_connect and MPI_Comm_accept: the port checks and the exchange. */
final class Connect {
    private Connect() {
    }

    /** Connects to {@code port}: ERR_PORT for a name that is no port or a port nobody holds. */
    static PortExchange.Side exchange(String port, PortExchange.Side mine, String call)
            throws MPIException {
        Ports.Address a = Ports.parse(port);
        if (a == null) {
            throw MPIException.of(ErrorClass.ERR_PORT, call + ": '" + port + "' is not a port name "
                    + "(MPI_Open_port makes them)");
        }
        try {
            return PortExchange.connect(a, mine);
        } catch (IOException e) {
            throw MPIException.of(ErrorClass.ERR_PORT, call + ": " + e.getMessage());
        }
    }

    /** One line on stderr (mpirun shows it as the rank's output). */
    static void report(String line) {
        System.err.println(line);
        System.err.flush();
    }

    /** Accepts on {@code port}, which this process must have opened: else ERR_PORT. */
    static PortExchange.Side accept(String port, PortExchange.Side mine, String call)
            throws MPIException {
        ServerSocket server = Ports.server(port);
        if (server == null) {
            throw MPIException.of(ErrorClass.ERR_PORT, call + ": '" + port + "' is not a port this "
                    + "process opened (MPI_Open_port at the root) or it was closed");
        }
        try {
            return PortExchange.accept(server, Ports.parse(port).token(), mine, Connect::report);
        } catch (IOException e) {
            throw MPIException.of(ErrorClass.ERR_PORT, call + ": " + e.getMessage());
        }
    }
}
