package org.verbatim.mpitests;

import java.io.PrintWriter;
import java.io.StringWriter;
import mpi.MPIException;

/**
 * The checks of one rank of a test program: each prints {@code PASS rank R: name} or
 * {@code FAIL rank R: name: why}, and {@link #summary()} prints the counts that the JUnit side
 * asserts on ({@code SUMMARY rank R passed=P failed=F}). A failed check never stops the program:
 * the remaining checks still run, so one launch reports everything that is wrong.
 */
final class Checks {
    /** An MPI call under test. */
    interface Call {
        void run() throws Exception;
    }

    private final int rank;
    private int passed;
    private int failed;

    Checks(int rank) {
        this.rank = rank;
    }

    int rank() {
        return rank;
    }

    int failed() {
        return failed;
    }

    void pass(String name) {
        passed++;
        System.out.println("PASS rank " + rank + ": " + name);
    }

    void fail(String name, String why) {
        failed++;
        System.out.println("FAIL rank " + rank + ": " + name + ": " + why);
        System.out.flush();
    }

    /** Records {@code ok}; returns it so callers can skip dependent checks. */
    boolean check(String name, boolean ok, String detail) {
        if (ok) {
            pass(name);
        } else {
            fail(name, detail);
        }
        return ok;
    }

    boolean equal(String name, long expected, long actual) {
        return check(name, expected == actual, "expected " + expected + ", got " + actual);
    }

    boolean equal(String name, Object expected, Object actual) {
        return check(name, java.util.Objects.equals(expected, actual),
                "expected " + expected + ", got " + actual);
    }

    /** Runs a group of checks; an unexpected exception fails the group with its stack trace. */
    void run(String name, Call body) {
        try {
            body.run();
        } catch (Throwable t) {
            fail(name, "unexpected " + stackTrace(t));
        }
    }

    /**
     * The call must throw an MPIException of {@code errorClass} whose message names
     * {@code callName} (for example MPI_Send); returns the exception or null.
     */
    MPIException expectError(String name, int errorClass, String callName, Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            boolean ok = e.getErrorClass() == errorClass && e.getErrorCode() != 0
                    && (callName == null || String.valueOf(e.getMessage()).contains(callName));
            check(name, ok, "expected error class " + errorClass + (callName == null ? ""
                    : " naming " + callName) + ", got class " + e.getErrorClass() + " code "
                    + e.getErrorCode() + ": " + e.getMessage());
            return e;
        } catch (Throwable t) {
            fail(name, "expected MPIException of class " + errorClass + ", got " + stackTrace(t));
            return null;
        }
        fail(name, "expected MPIException of class " + errorClass + ", nothing thrown");
        return null;
    }

    /** The call must throw an MPIException (of any class) whose message contains {@code text}. */
    void expectException(String name, String text, Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            check(name, String.valueOf(e.getMessage()).contains(text),
                    "expected a message containing '" + text + "', got: " + e.getMessage());
            return;
        } catch (Throwable t) {
            fail(name, "expected MPIException, got " + stackTrace(t));
            return;
        }
        fail(name, "expected MPIException, nothing thrown");
    }

    /** Prints the summary line and returns the exit status the program should end with. */
    int summary() {
        System.out.println("SUMMARY rank " + rank + " passed=" + passed + " failed=" + failed);
        System.out.flush();
        return failed == 0 ? 0 : 1;
    }

    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
