package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Comm.reduceLocal needs MPI.Init, so it runs in a singleton MPI process of its own (MPI state
 * is per JVM), with a hard time limit; the process's output is in the failure message.
 */
class OpReduceLocalTest {

    @Test
    void reduceLocalInASingletonProcess() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(System.getProperty("java.home") + "/bin/java",
                "--enable-native-access=ALL-UNNAMED", "-ea", "-XX:TieredStopAtLevel=1",
                "-Xmx64m", "-cp", System.getProperty("java.class.path"), Program.class.getName()))
                .redirectErrorStream(true).start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(done, "timed out:\n" + out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("reduceLocal OK"), out);
    }

    /** The MPI program: reduceLocal over arrays, boolean[], direct buffers, and its errors. */
    public static final class Program {
        public static void main(String[] args) throws Exception {
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);

            int[] in = {1, 2, 3}, io = {10, 20, 30};
            Comm.reduceLocal(in, io, 3, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {11, 22, 33}, io);

            boolean[] bin = {true, true, false}, bio = {true, false, false};
            Comm.reduceLocal(bin, bio, 3, MPI.BOOLEAN, MPI.LAND);
            assertArrayEquals(new boolean[] {true, false, false}, bio);
            Comm.reduceLocal(bin, bio, 3, MPI.BOOLEAN, MPI.LOR);
            assertArrayEquals(new boolean[] {true, true, false}, bio);

            IntBuffer din = MPI.newIntBuffer(2).put(0, 7).put(1, -7);
            IntBuffer dio = MPI.newIntBuffer(2).put(0, 3).put(1, 3);
            Comm.reduceLocal(din, dio, 2, MPI.INT, MPI.MAX);
            assertEquals(7, dio.get(0));
            assertEquals(3, dio.get(1));

            Op minus = new Op(new UserFunction() {
                @Override
                public void call(Object a, Object b, int count, Datatype type) {
                    long[] x = (long[]) a, y = (long[]) b;
                    for (int i = 0; i < count; i++) {
                        y[i] = x[i] - y[i];
                    }
                }
            }, false);
            long[] lio = {1, 2};
            Comm.reduceLocal(new long[] {10, 20}, lio, 2, MPI.LONG, minus);
            assertArrayEquals(new long[] {9, 18}, lio);

            expect(MPI.ERR_OP, () -> Comm.reduceLocal(new double[1], new double[1], 1,
                    MPI.DOUBLE, MPI.BAND));
            expect(MPI.ERR_COUNT, () -> Comm.reduceLocal(in, io, -1, MPI.INT, MPI.SUM));
            expect(MPI.ERR_BUFFER, () -> Comm.reduceLocal(in, new int[2], 3, MPI.INT, MPI.SUM));
            expect(MPI.ERR_OP, () -> Comm.reduceLocal(in, io, 3, MPI.INT, null));
            expect(MPI.ERR_OP, () -> MPI.SUM.free());
            MPI.Finalize();
            System.out.println("reduceLocal OK");
        }

        interface Call {
            void run() throws MPIException;
        }

        private static void expect(int errorClass, Call c) {
            try {
                c.run();
            } catch (MPIException e) {
                assertEquals(errorClass, e.getErrorClass(), e.getMessage());
                return;
            }
            throw new AssertionError("no MPIException, expected class " + errorClass);
        }
    }
}
